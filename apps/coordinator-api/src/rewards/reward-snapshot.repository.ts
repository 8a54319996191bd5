import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { CompetitionMode, MetricDirection, SubmissionStatus, TaskState } from '@rcs/contracts';
import { RewardSnapshotHistoryEntity } from './entities/reward-snapshot-history.entity';
import { RewardSnapshotEntity } from './entities/reward-snapshot.entity';
import { CurrentBest, IdeaCredit, ScoringTask } from './scoring';

/** The one row of `reward_snapshots`. */
export const CURRENT_SNAPSHOT_ID = 'current';

const epochMs = (column: string): string => `(extract(epoch FROM ${column}) * 1000)::float8`;

export interface TaskWithBest {
  task: ScoringTask;
  best: CurrentBest | null;
}

export interface AcceptedResultRow {
  task_id: string;
  miner_hotkey: string;
  metric: number;
  decided_at: number;
}

export interface SnapshotFreshness {
  /** When the served snapshot was generated; null when none is stored. */
  generatedAt: Date | null;
  /** Whether a committed change is not in it yet. */
  changed: boolean;
  /** Seconds since it was generated, by the database clock (null when none is stored). */
  ageSeconds: number | null;
}

/**
 * The reads the snapshot is built from (a few set-based statements, never one per task), the stored
 * snapshot and the recorded changes, always through the caller's manager. Times come back as epoch
 * milliseconds (float8, microseconds kept as the fraction) so no Date is allocated per row.
 */
@Injectable()
export class RewardSnapshotRepository {
  /** Makes the caller's transaction read-only; its first statement, before a read takes the snapshot. */
  async readOnly(manager: EntityManager): Promise<void> {
    await manager.query('SET TRANSACTION READ ONLY');
  }

  /** The database clock, truncated to milliseconds (the precision `generated_at` is printed with). */
  async readClockMs(manager: EntityManager): Promise<number> {
    const [row] = (await manager.query(`SELECT ${epochMs(`date_trunc('milliseconds', clock_timestamp())`)} AS ms`)) as { ms: number }[];
    return row.ms;
  }

  /** Every task with its current best (since when: `best_results.updated_at`, set when the best last changed hands). */
  async readTasksWithBest(manager: EntityManager): Promise<TaskWithBest[]> {
    const rows = (await manager.query(
      `SELECT t.id, t.slug, t.title, t.competition_mode, t.task_state, t.metric_direction,
              b.miner_hotkey AS best_miner_hotkey, b.metric_value AS best_metric_value, ${epochMs('b.updated_at')} AS best_since
       FROM tasks t LEFT JOIN best_results b ON b.task_id = t.id`,
    )) as {
      id: string;
      slug: string;
      title: string;
      competition_mode: CompetitionMode;
      task_state: TaskState;
      metric_direction: MetricDirection;
      best_miner_hotkey: string | null;
      best_metric_value: number | null;
      best_since: number | null;
    }[];
    return rows.map((row) => ({
      task: {
        id: row.id,
        slug: row.slug,
        title: row.title,
        competitionMode: row.competition_mode,
        taskState: row.task_state,
        metricDirection: row.metric_direction,
      },
      best:
        row.best_miner_hotkey === null || row.best_metric_value === null || row.best_since === null
          ? null
          : { minerHotkey: row.best_miner_hotkey, metricValue: row.best_metric_value, since: row.best_since },
    }));
  }

  /** Idea rewards by task id, oldest first (one per change of best at most, so few). */
  async readIdeaCredits(manager: EntityManager): Promise<Map<string, IdeaCredit[]>> {
    const rows = (await manager.query(
      `SELECT task_id, proposer_hotkey, implementer_hotkey, ${epochMs('created_at')} AS created_at
       FROM idea_rewards ORDER BY task_id, created_at, id`,
    )) as { task_id: string; proposer_hotkey: string; implementer_hotkey: string; created_at: number }[];
    const byTask = new Map<string, IdeaCredit[]>();
    for (const row of rows) {
      const credits = byTask.get(row.task_id) ?? [];
      credits.push({ proposerHotkey: row.proposer_hotkey, implementerHotkey: row.implementer_hotkey, createdAt: row.created_at });
      byTask.set(row.task_id, credits);
    }
    return byTask;
  }

  /**
   * Every accepted result, by task then in decision order (`decided_at`, then id), fetched through a
   * server-side cursor `batchSize` rows at a time so memory stays bounded however many there are.
   * `manager` must be inside a transaction (a cursor lives as long as its transaction).
   */
  async *streamAcceptedResults(manager: EntityManager, batchSize: number): AsyncGenerator<AcceptedResultRow[]> {
    await manager.query(
      `DECLARE accepted_results NO SCROLL CURSOR FOR
       SELECT task_id, miner_hotkey, verified_metric_value AS metric, ${epochMs('decided_at')} AS decided_at
       FROM submissions
       WHERE status = '${SubmissionStatus.Accepted}' AND verified_metric_value IS NOT NULL AND decided_at IS NOT NULL
       ORDER BY task_id, decided_at, id`,
    );
    for (;;) {
      const rows = (await manager.query(`FETCH FORWARD ${Math.trunc(batchSize)} FROM accepted_results`)) as AcceptedResultRow[];
      if (rows.length > 0) yield rows;
      if (rows.length < batchSize) break;
    }
    // Left open when the consumer stops early or fails: the transaction's end closes it then.
    await manager.query('CLOSE accepted_results');
  }

  findStoredSnapshot(manager: EntityManager): Promise<RewardSnapshotEntity | null> {
    return manager.findOneBy(RewardSnapshotEntity, { id: CURRENT_SNAPSHOT_ID });
  }

  /** The stored snapshot's row version (`xmin`: new on every write), or null when none is stored; reads no body. */
  async readStoredSnapshotVersion(manager: EntityManager): Promise<string | null> {
    const [row] = (await manager.query(`SELECT xmin::text AS version FROM reward_snapshots WHERE id = $1`, [CURRENT_SNAPSHOT_ID])) as { version: string }[];
    return row?.version ?? null;
  }

  /** The stored snapshot with its row version, read together. */
  async readStoredSnapshotWithVersion(manager: EntityManager): Promise<{ version: string; generatedAt: Date; body: string } | null> {
    const [row] = (await manager.query(`SELECT xmin::text AS version, generated_at, body FROM reward_snapshots WHERE id = $1`, [CURRENT_SNAPSHOT_ID])) as {
      version: string;
      generated_at: Date;
      body: string;
    }[];
    return row ? { version: row.version, generatedAt: row.generated_at, body: row.body } : null;
  }

  /**
   * Replaces the cached snapshot unless the stored one was generated later (two builds racing: the
   * one that read later data wins, whichever finishes last). Returns the row now stored.
   */
  async storeSnapshot(manager: EntityManager, generatedAt: Date, body: string): Promise<RewardSnapshotEntity> {
    await manager.query(
      `INSERT INTO reward_snapshots (id, generated_at, body) VALUES ($1, $2, $3)
       ON CONFLICT (id) DO UPDATE SET generated_at = EXCLUDED.generated_at, body = EXCLUDED.body
       WHERE reward_snapshots.generated_at <= EXCLUDED.generated_at`,
      [CURRENT_SNAPSHOT_ID, generatedAt.toISOString(), body],
    );
    return manager.findOneByOrFail(RewardSnapshotEntity, { id: CURRENT_SNAPSHOT_ID });
  }

  /**
   * Keeps the snapshot now served in the history by its SHA-256 (DECISIONS §16): the one it replaced
   * gets its `replaced_at` (pruning is `pruneHistory`'s, outside this transaction).
   */
  async keepInHistory(manager: EntityManager, snapshot: { sha256: string; generatedAt: Date; body: string }): Promise<void> {
    await manager.query(
      `INSERT INTO reward_snapshot_history (sha256, generated_at, body) VALUES ($1, $2, $3)
       ON CONFLICT (sha256) DO UPDATE SET replaced_at = NULL`,
      [snapshot.sha256, snapshot.generatedAt.toISOString(), snapshot.body],
    );
    await manager.query(`UPDATE reward_snapshot_history SET replaced_at = now() WHERE replaced_at IS NULL AND sha256 <> $1`, [snapshot.sha256]);
  }

  /** Whether a snapshot was replaced more than `historyDays` ago (pruning has something to do). */
  async historyDue(manager: EntityManager, historyDays: number): Promise<boolean> {
    const rows = (await manager.query(`SELECT 1 FROM reward_snapshot_history WHERE replaced_at < now() - make_interval(days => $1) LIMIT 1`, [historyDays])) as unknown[];
    return rows.length > 0;
  }

  /** Deletes the snapshots replaced more than `historyDays` ago, except those in `keep` (lowercase SHA-256). */
  async pruneHistory(manager: EntityManager, historyDays: number, keep: readonly string[]): Promise<number> {
    const [, deleted] = (await manager.query(`DELETE FROM reward_snapshot_history WHERE replaced_at < now() - make_interval(days => $1) AND NOT (sha256 = ANY($2::text[]))`, [
      historyDays,
      keep,
    ])) as [unknown, number];
    return deleted;
  }

  /** A served snapshot by its SHA-256, or null. */
  findInHistory(manager: EntityManager, sha256: string): Promise<RewardSnapshotHistoryEntity | null> {
    return manager.findOneBy(RewardSnapshotHistoryEntity, { sha256 });
  }

  /** The changes recorded since the last build that read them (ids of the writing transactions). */
  async readSnapshotChanges(manager: EntityManager): Promise<string[]> {
    const rows = (await manager.query('SELECT xact_id::text AS xact_id FROM reward_snapshot_changes')) as { xact_id: string }[];
    return rows.map((row) => row.xact_id);
  }

  /** Forgets changes a stored build has read. */
  async clearSnapshotChanges(manager: EntityManager, changes: string[]): Promise<void> {
    if (changes.length === 0) return;
    await manager.query('DELETE FROM reward_snapshot_changes WHERE xact_id = ANY($1::bigint[])', [changes]);
  }

  async readSnapshotFreshness(manager: EntityManager): Promise<SnapshotFreshness> {
    const [row] = (await manager.query(
      `SELECT s.generated_at,
              EXISTS (SELECT 1 FROM reward_snapshot_changes) AS changed,
              extract(epoch FROM clock_timestamp() - s.generated_at)::float8 AS age_seconds
       FROM (SELECT 1) one LEFT JOIN reward_snapshots s ON s.id = $1`,
      [CURRENT_SNAPSHOT_ID],
    )) as { generated_at: Date | null; changed: boolean; age_seconds: number | null }[];
    return { generatedAt: row.generated_at, changed: row.changed, ageSeconds: row.age_seconds };
  }
}
