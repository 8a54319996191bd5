/**
 * Child-process load on the embedded server (see run-ts.ts): many pg connections at once mixing
 * transactions that commit and roll back, parameterised statements (the extended protocol), a
 * statement that fails mid-protocol and plain reads, each answer checked against what it must be.
 * Prints one JSON line for embedded-concurrency.int-spec.ts: the operations run and the wrong answers.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, Pool, PoolClient } from 'pg';
import { EmbeddedPostgres } from '../src/embedded/embedded-postgres';

interface Load {
  connections: number;
  rounds: number;
}

class Checker {
  readonly wrong: string[] = [];
  operations = 0;

  check(what: string, ok: boolean, got: unknown): void {
    this.operations += 1;
    if (!ok) this.wrong.push(`${what}: got ${JSON.stringify(got)}`);
  }
}

/** One worker: its own rows (worker = id), so it knows every count it must read. */
async function worker(pool: Pool, id: number, rounds: number, checker: Checker): Promise<void> {
  let committed = 0;
  for (let round = 0; round < rounds; round += 1) {
    const read = await pool.query('SELECT $1::int AS echo, count(*)::int AS n FROM items WHERE worker = $2', [round, id]);
    checker.check('parameterised read', read.rows.length === 1 && read.rows[0].echo === round && read.rows[0].n === committed, read.rows);

    const plain = await pool.query('SELECT count(*)::int AS n FROM items');
    checker.check('plain count', plain.rows.length === 1, plain.rows);

    const client = await pool.connect();
    try {
      committed += await transaction(client, id, round, committed, checker);
    } finally {
      client.release();
    }

    const failed = await pool.query('SELECT 1 / $1::int AS q', [0]).then(
      (result) => `no error: ${JSON.stringify(result.rows)}`,
      (error: { code?: string }) => error.code,
    );
    checker.check('failing statement', failed === '22012', failed);
  }
  const final = await pool.query('SELECT count(*)::int AS n FROM items WHERE worker = $1', [id]);
  checker.check('final count', final.rows.length === 1 && final.rows[0].n === committed, { rows: final.rows, committed });
}

/** Inserts one row and reads it back inside a transaction; every third one rolls back. Returns rows kept. */
async function transaction(client: PoolClient, id: number, round: number, committed: number, checker: Checker): Promise<number> {
  await client.query('BEGIN');
  const inserted = await client.query('INSERT INTO items (worker, seq) VALUES ($1, $2) RETURNING seq', [id, round]);
  checker.check('insert returning', inserted.rows.length === 1 && inserted.rows[0].seq === round, inserted.rows);
  const inside = await client.query('SELECT count(*)::int AS n FROM items WHERE worker = $1', [id]);
  checker.check('count inside transaction', inside.rows.length === 1 && inside.rows[0].n === committed + 1, inside.rows);
  const rollback = round % 3 === 2;
  await client.query(rollback ? 'ROLLBACK' : 'COMMIT');
  return rollback ? 0 : 1;
}

/**
 * A client that dies inside its transaction, between a Parse and its Sync: the server must roll it back
 * and hand the session on, or every other connection waits (or runs inside that transaction).
 */
async function abandon(url: string, checker: Checker): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  await client.query('BEGIN');
  await client.query('INSERT INTO items (worker, seq) VALUES ($1, $2)', [0, 0]);
  const gone = new Promise((resolve) => client.once('error', resolve).once('end', resolve));
  // A Parse (unnamed, `SELECT 1`, no parameter types) with no Sync, then the socket closes.
  const stream = (client as unknown as { connection: { stream: Socket } }).connection.stream;
  stream.write(Buffer.from([0x50, 0, 0, 0, 16, 0, ...Buffer.from('SELECT 1'), 0, 0, 0]));
  stream.destroy();
  await gone;
  checker.check('abandoned client', true, null);
}

async function main(load: Load): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'rcs-embedded-load-'));
  const embedded = await EmbeddedPostgres.start({
    dataDir: path.join(dir, 'db'),
    logger: { log: () => undefined, warn: () => undefined },
    maxConnections: load.connections + 2,
  });
  // A lost answer must fail its query, not hang the run.
  const pool = new Pool({ connectionString: embedded.url, max: load.connections, query_timeout: 30_000 });
  const checker = new Checker();
  try {
    await pool.query('CREATE TABLE items (id serial PRIMARY KEY, worker int NOT NULL, seq int NOT NULL)');
    const ids = Array.from({ length: load.connections }, (_, i) => i + 1);
    const work = [abandon(embedded.url, checker), ...ids.map((id) => worker(pool, id, load.rounds, checker))];
    const errors = (await Promise.allSettled(work)).filter(
      (result): result is PromiseRejectedResult => result.status === 'rejected',
    );
    for (const error of errors) checker.wrong.push(`unexpected error: ${String(error.reason)}`);
    const abandoned = await pool.query('SELECT count(*)::int AS n FROM items WHERE worker = 0');
    checker.check('abandoned transaction rolled back', abandoned.rows.length === 1 && abandoned.rows[0].n === 0, abandoned.rows);
  } finally {
    await pool.end();
    await embedded.stop();
    await rm(dir, { recursive: true, force: true });
  }
  console.log(JSON.stringify({ ...load, operations: checker.operations, wrongCount: checker.wrong.length, wrong: checker.wrong.slice(0, 8) }));
}

main({ connections: Number(process.argv[2]), rounds: Number(process.argv[3]) }).catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
