import { createHash } from 'node:crypto';
import { encodeAddress } from '@polkadot/util-crypto';
import type { Client } from 'pg';

/** Accepted submissions of the one miner whose results page the http benchmark reads (issue 35). */
export const HEAVY_MINER_ACCEPTED = 100_000;

/** A real SS58 address (the route decodes it), the same in every run. */
export const HEAVY_MINER = encodeAddress(createHash('sha256').update('bench-heavy-miner').digest(), 42);

/** `GET /api/v1/miners/{hotkey}/results` of the heavy miner: its first page (100 competitions at most). */
export const HEAVY_MINER_RESULTS_PATH = `/api/v1/miners/${HEAVY_MINER}/results`;

/**
 * 100,000 accepted submissions of the heavy miner (each with its submitted claim) spread over `taskIds`, decided over
 * 40 days with varied metric values: what made the results route cost 0.4–0.7 s before it read one page of
 * `miner_task_results` (kept by the submissions triggers, here too).
 */
export async function seedHeavyMiner(client: Client, taskIds: string[], hashed: (expression: string) => string): Promise<void> {
  const tasks = `(ARRAY[${taskIds.map((id) => `'${id}'::uuid`).join(', ')}])[1 + i % ${taskIds.length}]`;
  await client.query(
    `INSERT INTO claims (id, task_id, miner_hotkey, claim_description, status, expires_at, created_at)
     SELECT md5('heavy-claim' || i)::uuid, ${tasks}, $1, 'bench', 'submitted', now(), now() - interval '2 days'
     FROM generate_series(0, ${HEAVY_MINER_ACCEPTED - 1}) AS i`,
    [HEAVY_MINER],
  );
  await client.query(
    `INSERT INTO submissions (id, task_id, claim_id, miner_hotkey, base_ref, patch, summary, status, decided_at, verified_metric_value, created_at)
     SELECT md5('heavy-sub' || i)::uuid, ${tasks}, md5('heavy-claim' || i)::uuid, $1, 'main', 'diff --git a/src/a.py b/src/a.py', 'bench', 'accepted',
            now() - (${hashed("'hd' || i")} * interval '40 days'), round((${hashed("'hm' || i")} * 100)::numeric, 3)::float8, now() - interval '41 days'
     FROM generate_series(0, ${HEAVY_MINER_ACCEPTED - 1}) AS i`,
    [HEAVY_MINER],
  );
}
