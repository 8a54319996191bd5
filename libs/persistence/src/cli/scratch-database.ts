import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from 'pg';

/** Where the CLI migrates to head before diffing: a throwaway database, never a real one. */
export interface ScratchDatabase {
  /** Postgres URL, or null for an embedded server in `embeddedDir`. */
  url: string | null;
  embeddedDir: string;
  dispose(): Promise<void>;
}

async function withClient<T>(url: string, fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A fresh database on the server at `serverUrl`, dropped on dispose. */
export async function scratchOnServer(serverUrl: string): Promise<ScratchDatabase> {
  const name = `rcs_migration_scratch_${randomBytes(4).toString('hex')}`;
  await withClient(serverUrl, (c) => c.query(`CREATE DATABASE "${name}"`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    embeddedDir: '',
    dispose: () => withClient(serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}

/** An embedded server in a temporary directory, deleted on dispose. */
export async function scratchEmbedded(): Promise<ScratchDatabase> {
  const dir = await mkdtemp(path.join(tmpdir(), 'rcs-migration-'));
  return {
    url: null,
    embeddedDir: path.join(dir, 'pgdata'),
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}
