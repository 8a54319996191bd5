import { BtAuthSigner } from '@rcs/auth';
import type { PoolLeaseDto } from '@rcs/contracts';
import { SeedLoader } from '../../src/algorithms/seed-loader';
import { expectStatus, PoolClient, PoolHarness, signer } from './harness';

let minerCount = 0;
let windowCount = 1000;

/** A fresh miner key (a new hotkey every call). */
export function freshMiner(label = 'miner'): Promise<BtAuthSigner> {
  minerCount += 1;
  return signer(`//Pool//${label}//${process.pid}//${minerCount}`);
}

/** A window number no other lease of this test file used. */
export function freshWindow(): number {
  windowCount += 1;
  return windowCount;
}

/** Inserts seeds of `taskType` and returns their ids, in order. */
export async function seed(h: PoolHarness, taskType: string, dsls: string[], inputDim = 16): Promise<number[]> {
  await h.app.get(SeedLoader).load(dsls.map((algorithm_dsl) => ({ task_type: taskType, algorithm_dsl, input_dim: inputDim })));
  const rows = (await h.db.dataSource.query(`SELECT id FROM algorithms WHERE task_type = $1 AND source = 'seed' ORDER BY id`, [taskType])) as { id: number }[];
  return rows.map((row) => row.id);
}

export async function lease(api: PoolClient, miner: BtAuthSigner, taskType: string, extra: Record<string, unknown> = {}): Promise<PoolLeaseDto> {
  const reply = await api.signed<PoolLeaseDto>(miner, 'POST', '/api/v1/tasks/lease', { task_type: taskType, sim_window_number: freshWindow(), ...extra });
  expectStatus(reply, 200);
  return reply.body;
}

/** Fresh miners each lease `taskType` and score `algorithmId` with one of `scores`, one after another. */
export async function evaluateInTurn(api: PoolClient, taskType: string, algorithmId: number, scores: number[]): Promise<BtAuthSigner[]> {
  const miners: BtAuthSigner[] = [];
  for (const score of scores) {
    const miner = await freshMiner('evaluator');
    const issued = await lease(api, miner, taskType);
    expect(issued.evaluate_algorithms.map((a) => a.id)).toContain(algorithmId);
    const reply = await api.signed(miner, 'POST', `/api/v1/tasks/${issued.lease_id}/submit_lease`, { evaluations: [{ algorithm_id: algorithmId, score }], evolutions: [] });
    expectStatus(reply, 200);
    miners.push(miner);
  }
  return miners;
}

export interface AlgorithmRow {
  status: string;
  consensus_score: number | null;
  evaluations_count: number;
}

export async function algorithmRow(h: PoolHarness, id: number): Promise<AlgorithmRow> {
  const rows = (await h.db.dataSource.query(`SELECT status, consensus_score, evaluations_count FROM algorithms WHERE id = $1`, [id])) as AlgorithmRow[];
  return rows[0];
}
