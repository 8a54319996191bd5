/**
 * A scripted pool-mining round against a running pool service, over HTTP only, as BitSota's miner
 * clients drive it: the miners register, the first evolves through an evolve batch, the third leases
 * (evaluating and evolving), all evaluate through batches until an algorithm is scored at consensus, every
 * miner sets its recipient coldkey, and an allowlisted validator verifies the result, which raises the SOTA.
 */
import { BtAuthSigner } from '@rcs/auth';
import { RoundStepError } from './round';

export interface PoolRoundOptions {
  /** Pool base URL, e.g. http://127.0.0.1:8434 */
  url: string;
  /**
   * Miner hotkeys, at least three. Consensus needs three evaluators of distinct owners besides the author's
   * (DECISIONS §11), so miners that share an owner coldkey on chain need others beside them.
   */
  miners: BtAuthSigner[];
  /** A hotkey of the pool's VALIDATOR_HOTKEYS. */
  validator: BtAuthSigner;
  /** Recipient coldkey each miner sets, in the order of `miners`. */
  recipients: string[];
  /** Receives one line per step. */
  log?: (line: string) => void;
  /** Evaluation batches per miner before giving up (default 40). */
  maxBatches?: number;
  /** How long the lease may wait for the next window when its miner already leased in this one (default 60 s). */
  leaseWindowWaitMs?: number;
}

export interface PoolRoundResult {
  algorithmId: number;
  resultId: number;
  sotaThreshold: number;
}

type Json = Record<string, unknown>;
interface Algorithm {
  id: number;
  algorithm_dsl: string;
}

class PoolApi {
  constructor(private readonly url: string) {}

  async send<T = Json>(step: string, method: string, path: string, expected: number, options: { signer?: BtAuthSigner; body?: unknown; recipient?: string } = {}): Promise<T> {
    const ts = Math.floor(Date.now() / 1000);
    const headers: Record<string, string> = {};
    if (options.recipient !== undefined && options.signer) Object.assign(headers, options.signer.signRecipientUpdate(ts, options.recipient));
    else if (options.signer) Object.assign(headers, options.signer.signPool(ts));
    const text = options.body === undefined ? undefined : JSON.stringify(options.body);
    if (text !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.url}${path}`, { method, headers, body: text });
    const raw = await response.text();
    if (response.status !== expected) throw new RoundStepError(step, response.status, raw, `expected HTTP ${expected}`);
    return (raw === '' ? {} : JSON.parse(raw)) as T;
  }
}

/** The score every honest miner of this round measures for an algorithm: all agree, so consensus is reached. */
function measuredScore(sota: number, algorithmId: number): number {
  return Number((sota + 0.05 + (algorithmId % 5) / 1000).toFixed(6));
}

interface Lease {
  lease_id: string;
  window_number: number;
  evolve_budget: number;
  evaluate_algorithms: Algorithm[];
  seed_algorithms: Algorithm[];
}

/**
 * A lease for `miner`. Miners kept from run to run (the local stack's) may have leased in this window
 * already: then the round waits, within `waitMs`, for the pool's next window and leases there.
 */
async function leaseInAFreshWindow(api: PoolApi, miner: BtAuthSigner, waitMs: number): Promise<Lease> {
  const lease = () => api.send<Lease>('lease', 'POST', '/api/v1/tasks/lease', 200, { signer: miner, body: { eval_batch_size: 8, seed_batch_size: 2, gossip_limit: 5 } });
  try {
    return await lease();
  } catch (error) {
    if (!(error instanceof RoundStepError && error.status === 400 && error.body.includes('Lease already issued for this window'))) throw error;
    const windowOf = async () => (await api.send<{ window_number: number | null }>('health', 'GET', '/health', 200)).window_number;
    const leased = await windowOf();
    const deadline = Date.now() + waitMs;
    while ((await windowOf()) === leased) {
      if (Date.now() > deadline) throw new RoundStepError('lease', 400, error.body, `the miner leased in window ${leased} already, and the next window did not come within ${waitMs / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    return lease();
  }
}

export async function runPoolRound(options: PoolRoundOptions): Promise<PoolRoundResult> {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const api = new PoolApi(options.url);
  if (options.miners.length < 3 || options.recipients.length !== options.miners.length) {
    throw new RangeError(`a pool round needs at least three miners and one recipient each (got ${options.miners.length} miners, ${options.recipients.length} recipients)`);
  }
  const [a, b, c] = options.miners;
  const count = options.miners.length;
  const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

  const health = await api.send<{ status: string; window_number: number | null }>('health', 'GET', '/health', 200);
  if (health.status !== 'healthy') throw new RoundStepError('health', 200, JSON.stringify(health), 'pool is not healthy');
  await api.send('disclaimer', 'GET', '/api/v1/disclaimer', 200);
  log(`health: ${health.status}, window ${health.window_number}`);

  for (const miner of options.miners) await api.send('register', 'POST', '/api/v1/miners/register', 200, { signer: miner, body: {} });
  log(`register: ${count} miners`);

  const sota = (await api.send<{ sota_threshold: number }>('sota', 'GET', '/api/v1/results/sota', 200)).sota_threshold;

  // Miner A evolves through an evolve batch.
  const evolve = await api.send<{ batch_id: string; algorithms: Algorithm[] }>('request evolve', 'POST', '/api/v1/tasks/request', 200, {
    signer: a,
    body: { task_type: 'evolve' },
  });
  const evolved = await api.send<{ algorithm_id: number }>('submit_evolution', 'POST', `/api/v1/tasks/${evolve.batch_id}/submit_evolution`, 200, {
    signer: a,
    body: { evolved_function: `${evolve.algorithms[0].algorithm_dsl}\ns7 = ${suffix.length}  # round ${suffix}`, parent_functions: evolve.algorithms.slice(0, 2).map((p) => ({ id: p.id })), public_address: a.hotkey },
  });
  log(`evolve: batch ${evolve.batch_id} -> algorithm ${evolved.algorithm_id}`);

  // Miner C leases: it evaluates what the lease holds and evolves once.
  const lease = await leaseInAFreshWindow(api, c, options.leaseWindowWaitMs ?? 60_000);
  const leaseSubmission = await api.send<{ recorded_evaluations: number; created_algorithm_ids: number[] }>(
    'submit_lease',
    'POST',
    `/api/v1/tasks/${lease.lease_id}/submit_lease`,
    200,
    {
      signer: c,
      body: {
        evaluations: lease.evaluate_algorithms.map((alg) => ({ algorithm_id: alg.id, score: measuredScore(sota, alg.id) })),
        evolutions:
          lease.evolve_budget > 0 && lease.seed_algorithms.length > 0
            ? [{ parent_algorithm_ids: [lease.seed_algorithms[0].id], algorithm_dsl: `${lease.seed_algorithms[0].algorithm_dsl}\ns8 = 0.5  # lease ${suffix}` }]
            : [],
        iterations: 1,
      },
    },
  );
  log(`lease: window ${lease.window_number}, ${leaseSubmission.recorded_evaluations} evaluation(s), created ${leaseSubmission.created_algorithm_ids.join(',') || 'none'}`);

  // Everyone evaluates through batches until an algorithm the miners agreed on is scored.
  const maxBatches = options.maxBatches ?? 40;
  let scored: { id: number; resultId: number } | null = null;
  const evaluated = new Set<number>(lease.evaluate_algorithms.map((alg) => alg.id));
  for (let turn = 0; turn < maxBatches && scored === null; turn++) {
    let handedOut = 0;
    for (const miner of options.miners) {
      const response = await fetch(`${options.url}/api/v1/tasks/request`, {
        method: 'POST',
        headers: { ...miner.signPool(), 'content-type': 'application/json' },
        body: JSON.stringify({ task_type: 'evaluate' }),
      });
      if (response.status === 404) continue;
      const raw = await response.text();
      if (response.status === 429) {
        // The owner's batches of this window are spent (POOL_BATCHES_PER_WINDOW): a client waits for the next window.
        const wait = Math.min(120, Math.max(1, Number(response.headers.get('retry-after') ?? '1')));
        log(`request evaluate: 429 window_batch_limit, waiting ${wait} s (Retry-After)`);
        await new Promise((resolve) => setTimeout(resolve, wait * 1000));
        continue;
      }
      if (response.status !== 200) throw new RoundStepError('request evaluate', response.status, raw, 'expected HTTP 200 or 404');
      const batch = JSON.parse(raw) as { batch_id: string; algorithms: Algorithm[] };
      handedOut += batch.algorithms.length;
      for (const alg of batch.algorithms) evaluated.add(alg.id);
      await api.send('submit_evaluation', 'POST', `/api/v1/tasks/${batch.batch_id}/submit_evaluation`, 200, {
        signer: miner,
        body: { evaluations: batch.algorithms.map((alg) => ({ algorithm_id: alg.id, score: measuredScore(sota, alg.id) })), evaluation_metrics: {} },
      });
    }
    const pending = await api.send<{ id: number; algorithm_id: number; score: number }[]>('results (pending)', 'GET', '/api/v1/results/?status=pending&limit=1000', 200, {
      signer: options.validator,
    });
    const ours = pending.filter((r) => evaluated.has(r.algorithm_id) && r.score > sota).sort((x, y) => y.score - x.score)[0];
    if (ours) scored = { id: ours.algorithm_id, resultId: ours.id };
    else if (handedOut === 0) throw new RoundStepError('evaluate', 404, '', 'no algorithm left to evaluate and none scored');
  }
  if (scored === null) throw new RoundStepError('evaluate', 200, '', `no algorithm scored after ${maxBatches} batches per miner`);
  log(`consensus: algorithm ${scored.id} scored, result ${scored.resultId} pending`);

  for (const [i, miner] of options.miners.entries()) {
    const updated = await api.send<{ recipient_coldkey: string }>('recipient', 'PUT', '/api/v1/miners/recipient-coldkey', 200, {
      signer: miner,
      body: { recipient_coldkey: options.recipients[i] },
      recipient: options.recipients[i],
    });
    const lookup = await api.send<{ recipient_coldkey: string | null }>('recipient lookup', 'GET', `/api/v1/miners/recipient-coldkey/${miner.hotkey}`, 200);
    if (lookup.recipient_coldkey !== updated.recipient_coldkey) throw new RoundStepError('recipient lookup', 200, JSON.stringify(lookup), 'recipient not stored');
  }
  log(`recipient: ${count} miners`);

  const verified = await api.send<{ status: string; result_id: number; sota_threshold: number }>('verify', 'POST', `/api/v1/results/verify/${scored.resultId}`, 200, {
    signer: options.validator,
  });
  const after = await api.send<{ sota_threshold: number; result_id: number | null }>('sota', 'GET', '/api/v1/results/sota', 200);
  if (!(after.sota_threshold > sota) || after.sota_threshold !== verified.sota_threshold) {
    throw new RoundStepError('sota', 200, JSON.stringify(after), `threshold did not rise above ${sota}`);
  }
  const listed = await api.send<{ id: number; verified: boolean }[]>('results', 'GET', '/api/v1/results/?limit=1000', 200, { signer: a });
  if (!listed.some((r) => r.id === scored.resultId && r.verified)) throw new RoundStepError('results', 200, JSON.stringify(listed).slice(0, 500), 'verified result not listed');
  log(`verify: result ${scored.resultId}, sota ${sota} -> ${after.sota_threshold}`);

  await api.send('stats', 'GET', '/api/v1/miners/stats', 200, { signer: b });
  const board = await api.send<{ hotkey: string }[]>('leaderboard', 'GET', '/api/v1/miners/leaderboard?limit=1000', 200);
  if (!options.miners.every((m) => board.some((row) => row.hotkey === m.hotkey))) throw new RoundStepError('leaderboard', 200, '', 'a miner is missing');
  log(`leaderboard: ${count} miners ranked`);
  return { algorithmId: scored.id, resultId: scored.resultId, sotaThreshold: after.sota_threshold };
}
