/**
 * The pool's leaderboard at 10⁶ reputation events (issue "the pool under faults", item 6): the pool's own
 * query over its maintained standings against a bare read of the same answer from one table, both timed in
 * the database; the endpoint over HTTP and the all-history sum it replaced are reported beside them.
 */
import { Client } from 'pg';
import { median } from './stats';

export const LEADERBOARD_MINERS = 2000;
export const LEADERBOARD_EVENTS_PER_MINER = 500;
const READS = 100;
/** The all-history sum takes seconds at 10⁶ events: a few reads give its median. */
const ALL_HISTORY_READS = 3;
/** SCORE_EMA_DAYS' default, in seconds: D of the decay. */
const DECAY_SECONDS = 10 * 86400;

export interface LeaderboardFigures {
  events: number;
  /** Median ms of the pool's query (MinersRepository.leaderboard: miner_standings by its rank index, decayed at read). */
  standingsMs: number;
  /** Median ms of the same answer read from one table. */
  bareMs: number;
  /** Median ms of `GET /api/v1/miners/leaderboard?limit=100` against the pool. */
  httpMs: number;
  /** Median ms of the all-history sum the leaderboard used to compute on every call. */
  allHistoryMs: number;
}

/** The pool's query (MinersRepository.leaderboard), its first part: every bench miner has a positive reputation. */
const STANDINGS_SQL = `SELECT m.hotkey, m.last_seen_at,
    coalesce(greatest(0, s.reputation_sum * exp(-extract(epoch FROM (now() - s.reputation_at)) / $2)), 0)::float8 AS reputation,
    s.evaluations, s.evolutions
  FROM miner_standings s JOIN miners m ON m.hotkey = s.miner_hotkey
  WHERE s.rank_key IS NOT NULL
  ORDER BY s.rank_key DESC, s.miner_hotkey ASC LIMIT $1`;

const ALL_HISTORY_SQL = `SELECT m.hotkey, m.last_seen_at,
    greatest(0, coalesce(sum(r.amount * exp(-extract(epoch FROM (now() - r.created_at)) / $2)), 0))::float8 AS reputation
  FROM miners m LEFT JOIN reputation_events r ON r.miner_hotkey = m.hotkey
  GROUP BY m.hotkey ORDER BY reputation DESC, m.hotkey ASC LIMIT $1`;

const BARE_SQL = `SELECT hotkey, last_seen_at, reputation, evaluations, evolutions FROM bench_leaderboard ORDER BY reputation DESC, hotkey ASC LIMIT $1`;

/** Writes 10⁶ reputation events over the last 30 days for `LEADERBOARD_MINERS` miners (rows only: the pool rebuilds its standings at its next boot). */
export async function seedReputationEvents(databaseUrl: string): Promise<number> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const algorithms = (await db.query<{ id: number }>(`SELECT id FROM algorithms ORDER BY id LIMIT $1`, [LEADERBOARD_EVENTS_PER_MINER])).rows.map((r) => r.id);
    await db.query(`INSERT INTO miners (hotkey) SELECT 'bench-miner-' || lpad(i::text, 5, '0') FROM generate_series(1, $1) AS i ON CONFLICT DO NOTHING`, [LEADERBOARD_MINERS]);
    await db.query(
      `INSERT INTO reputation_events (miner_hotkey, kind, algorithm_id, amount, created_at)
       SELECT 'bench-miner-' || lpad(i::text, 5, '0'),
              CASE WHEN (i + a) % 5 = 0 THEN 'evaluation_out_of_consensus' ELSE 'evaluation_in_consensus' END,
              alg, CASE WHEN (i + a) % 5 = 0 THEN -0.5 ELSE 1.0 END,
              now() - make_interval(secs => ((i * 7919 + a * 104729) % 2592000))
       FROM generate_series(1, $1) AS i, unnest($2::int[]) WITH ORDINALITY AS t (alg, a)`,
      [LEADERBOARD_MINERS, algorithms],
    );
    const [{ n }] = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM reputation_events`)).rows;
    return n;
  } finally {
    await db.end();
  }
}

async function timedReads(read: () => Promise<unknown>, reads = READS): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < reads; i++) {
    const start = performance.now();
    await read();
    times.push(performance.now() - start);
  }
  return median(times);
}

/** Times the four reads once the pool has rebuilt its standings; the bare table holds exactly the pool's answer. */
export async function measureLeaderboard(databaseUrl: string, poolUrl: string, events: number): Promise<LeaderboardFigures> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query(`DROP TABLE IF EXISTS bench_leaderboard`);
    await db.query(`CREATE TABLE bench_leaderboard AS ${STANDINGS_SQL.replace('LIMIT $1', '')}`.replace('$2', String(DECAY_SECONDS)));
    await db.query(`ANALYZE bench_leaderboard`);
    const answer = (await db.query(STANDINGS_SQL, [100, DECAY_SECONDS])).rows.map((r: { hotkey: string }) => r.hotkey);
    const bare = (await db.query(BARE_SQL, [100])).rows.map((r: { hotkey: string }) => r.hotkey);
    if (answer.join() !== bare.join()) throw new LeaderboardMismatchError();
    const served = (await (await fetch(`${poolUrl}/api/v1/miners/leaderboard?limit=100`)).json()) as { hotkey: string }[];
    if (served.map((r) => r.hotkey).join() !== answer.join()) throw new LeaderboardMismatchError();
    return {
      events,
      standingsMs: await timedReads(() => db.query(STANDINGS_SQL, [100, DECAY_SECONDS])),
      bareMs: await timedReads(() => db.query(BARE_SQL, [100])),
      httpMs: await timedReads(async () => (await fetch(`${poolUrl}/api/v1/miners/leaderboard?limit=100`)).arrayBuffer()),
      allHistoryMs: await timedReads(() => db.query(ALL_HISTORY_SQL, [100, DECAY_SECONDS]), ALL_HISTORY_READS),
    };
  } finally {
    await db.end();
  }
}

/** The pool's leaderboard and the bare read disagree: the comparison would measure two different answers. */
export class LeaderboardMismatchError extends Error {
  constructor() {
    super('the pool leaderboard and the bare table answer different miners');
    this.name = 'LeaderboardMismatchError';
  }
}
