import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type ChainConfig, devChainRedis, devRedisReady, sharedDevGenesisMs, sharedGenesisKey } from '@rcs/chain';
import { StackError } from './redis';

/** Where a DATA_DIR records the dev chain its databases belong to. It outlives the stack (`stack.json` does not). */
export const DEV_CHAIN_RECORD = 'dev-chain.json';

/** The embedded databases under DATA_DIR whose rows (epochs, claims, snapshots) were made on one dev chain. */
const EMBEDDED_DATABASES = ['coordinator', 'pool', 'payout-verifier'];

const READY_WAIT_MS = 5000;

interface DevChainRecord {
  key_prefix: string;
  /** Block 0 (epoch ms), and the same for a person reading the file. */
  genesis_ms: number;
  genesis: string;
}

export interface DevChainAnchor {
  /** Block 0 of the stack's dev chain (epoch ms). */
  genesisMs: number;
  /** True when this launch began the chain (no DATA_DIR before it, nothing in Redis). */
  began: boolean;
}

/**
 * Keeps a DATA_DIR and its dev chain together. The chain lives in Redis (block 0, the claim contract's epochs,
 * claims and challenges; DECISIONS §9), the databases in DATA_DIR. A Redis that was emptied or restarted
 * without persistence while DATA_DIR kept its databases would start a new chain at block 0 under them: the
 * pool's epochs would then never be published again, and the simulated contract would have forgotten what
 * it paid. So the first launch fixes block 0 and records it in DATA_DIR; a later launch refuses, touching
 * nothing, when the Redis no longer holds that chain.
 */
export async function anchorDevChain(dataDir: string, store: ChainConfig['devStore'], nowMs = Date.now()): Promise<DevChainAnchor> {
  const { redisUrl, keyPrefix } = store;
  const recordPath = join(dataDir, DEV_CHAIN_RECORD);
  const record = readRecord(recordPath);
  const redis = devChainRedis(redisUrl, { connectionName: 'stack-launcher', maxRetriesPerRequest: 1 });
  try {
    // The launcher just saw this Redis answer: a client not ready within seconds says why (the last error it met).
    let lastError: string | null = null;
    redis.on('error', (error: Error) => (lastError = error.message));
    await devRedisReady(redis, READY_WAIT_MS).catch((error: Error) => {
      throw new StackError(`cannot read the dev chain from the Redis at ${redisUrl}: ${lastError ?? error.message}`);
    });
    const held = await redis.get(sharedGenesisKey(keyPrefix));
    const heldMs = held === null ? null : Number(held);
    const where = `the Redis at ${redisUrl} (REDIS_KEY_PREFIX ${keyPrefix})`;
    if (record !== null && heldMs === null) {
      throw new StackError(
        `${dataDir} belongs to the dev chain that began at ${iso(record.genesis_ms)} in ${where}, and that Redis no longer holds it ` +
          '(it was emptied, or restarted without keeping anything on disk).\n' +
          afresh(dataDir),
      );
    }
    if (record !== null && heldMs !== record.genesis_ms) {
      throw new StackError(
        `${where} holds a dev chain that began at ${iso(heldMs as number)}, not the one ${dataDir} belongs to (began ${iso(record.genesis_ms)}): ` +
          'another stack uses that Redis and prefix.\n' +
          '  Give each stack its own REDIS_URL or REDIS_KEY_PREFIX, or start this one afresh:\n' +
          afresh(dataDir),
      );
    }
    if (record === null && heldMs === null && EMBEDDED_DATABASES.some((name) => existsSync(join(dataDir, name)))) {
      throw new StackError(
        `${dataDir} holds the databases of an earlier stack, but ${where} holds no dev chain for them ` +
          '(it was emptied, or restarted without keeping anything on disk).\n' +
          afresh(dataDir),
      );
    }
    if (record !== null) return { genesisMs: record.genesis_ms, began: false };
    // First launch on this DATA_DIR: begin the chain (or join the one the Redis holds) and record it.
    const genesisMs = await sharedDevGenesisMs(redis, keyPrefix, nowMs);
    const made: DevChainRecord = { key_prefix: keyPrefix, genesis_ms: genesisMs, genesis: iso(genesisMs) };
    writeFileSync(recordPath, `${JSON.stringify(made, null, 2)}\n`);
    return { genesisMs, began: heldMs === null };
  } finally {
    redis.disconnect();
  }
}

function afresh(dataDir: string): string {
  return (
    `  Its databases and a new chain would disagree, so the stack does not start. Start afresh with another DATA_DIR, or delete ${dataDir}.\n` +
    '  To keep a stack across restarts of its Redis, give it a Redis of its own: with nothing answering at REDIS_URL\n' +
    '  (e.g. REDIS_URL=redis://127.0.0.1:6380), npm start runs redis-server with an append-only file in DATA_DIR/redis.'
  );
}

function readRecord(path: string): DevChainRecord | null {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return null;
  }
  let parsed: Partial<DevChainRecord> | null = null;
  try {
    parsed = JSON.parse(text) as Partial<DevChainRecord> | null;
  } catch {
    parsed = null;
  }
  if (typeof parsed?.genesis_ms !== 'number' || !Number.isSafeInteger(parsed.genesis_ms)) {
    throw new StackError(`${path} is not a dev-chain record (JSON with an integer genesis_ms); it belongs to its DATA_DIR: delete the two together`);
  }
  return parsed as DevChainRecord;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
