/**
 * `npm run demo`: the first end-to-end round against the stack `npm start` runs (coordinator and
 * validator runner). Reads the coordinator URL and admin token from DATA_DIR/stack.json unless given.
 * Exit 0 when every step answered as expected, 1 otherwise, 2 on bad usage.
 */
import { mnemonicGenerate } from '@polkadot/util-crypto';
import { BtAuthSigner, keypairFromUri } from '@rcs/auth';
import { pythonNumpyProblem } from '@rcs/testing';
import type { WeightSetterStatusDto } from '@rcs/contracts';
import { runCli, UsageError } from '../round/cli';
import { runClaimRound } from '../round/claim-round';
import { runPoolRound } from '../round/pool-round';
import { stackPoolMiners } from '../stack/pool-miners';
import { readStackState } from '../stack/state';
import { runDemo } from './demo';
import { runTernaryRound } from './ternary';

const HELP = `Usage: npm run demo [-- --url URL --admin-token TOKEN --timeout SECONDS]

Runs one competition round, then the ternary pack's round (examples/competitions; skipped without python3 and
NumPy), against the running local stack (start it with npm start first).
  --url          coordinator base URL (default: from DATA_DIR/stack.json, written by npm start)
  --admin-token  an X-Admin-Token the coordinator accepts (default: from DATA_DIR/stack.json)
  --timeout      seconds to wait for each decision of the validator runner (default 180)
  --pool-url     pool base URL for the pool round (default: from DATA_DIR/stack.json when the stack runs the pool)
  --validator-uri  validator key the pool allowlists, to verify the pool result (default: //Alice, the stack's)
  --weight-setter-url  weight setter whose last pass is printed at the end (default: from DATA_DIR/stack.json, else 127.0.0.1 and WEIGHT_SETTER_PORT or 8200)`;

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  url: { type: 'string' },
  'admin-token': { type: 'string' },
  timeout: { type: 'string', default: '180' },
  'pool-url': { type: 'string' },
  'validator-uri': { type: 'string', default: '//Alice' },
  'weight-setter-url': { type: 'string' },
} as const;

runCli('demo', HELP, OPTIONS, async (values) => {
  const stack = readStackState(process.env.DATA_DIR);
  const url = values.url ?? stack.coordinator_url;
  const adminToken = values['admin-token'] ?? stack.admin_token;
  if (!url || !adminToken) throw new UsageError('no running stack found: start it with npm start, or pass --url and --admin-token');
  const timeoutSeconds = Number(values.timeout);
  if (!Number.isInteger(timeoutSeconds) || timeoutSeconds < 1) throw new UsageError('--timeout must be a whole number of seconds');
  const seed = mnemonicGenerate();
  const [alice, bob] = await Promise.all([1, 2].map(async (n) => new BtAuthSigner(await keypairFromUri(`${seed}//demo/${n}`))));
  await runDemo({
    url: url.replace(/\/+$/, ''),
    adminToken,
    miners: [alice, bob],
    decisionTimeoutMs: timeoutSeconds * 1000,
    log: (line) => process.stdout.write(`${line}\n`),
  });
  await ternaryRound(url.replace(/\/+$/, ''), adminToken, [alice, bob], timeoutSeconds * 1000);
  const poolUrl = values['pool-url'] ?? stack.pool_url ?? null;
  if (poolUrl === null) {
    process.stdout.write('pool round: skipped (the stack runs no pool-service)\n');
  } else {
    // The stack's own miners, whose owners npm start recorded on the dev chain (two share one), each paid to its owner.
    const { signers, owners } = await stackPoolMiners();
    const pool = await runPoolRound({
      url: poolUrl.replace(/\/+$/, ''),
      miners: signers,
      validator: new BtAuthSigner(await keypairFromUri(values['validator-uri'])),
      recipients: owners,
      log: (line) => process.stdout.write(`pool ${line}\n`),
    });
    process.stdout.write(`pool round: ok (algorithm ${pool.algorithmId} scored, result ${pool.resultId} verified, sota ${pool.sotaThreshold})\n`);
    // The coordinator round's accepted miner is in the reward snapshot: its reward reaches it through a claim.
    const claims = await runClaimRound({
      url: poolUrl.replace(/\/+$/, ''),
      miner: alice,
      recipient: (await keypairFromUri(`${seed}//demo/cold/1`)).address,
      timeoutMs: timeoutSeconds * 1000,
      log: (line) => process.stdout.write(`claims ${line}\n`),
    });
    process.stdout.write(`claim round: ok (epoch ${claims.first.epoch} paid ${claims.first.paid}, epoch ${claims.later.epoch} paid ${claims.later.paid})\n`);
  }
  await printWeights(values['weight-setter-url'] ?? stack.weight_setter_url ?? `http://127.0.0.1:${process.env.WEIGHT_SETTER_PORT ?? '8200'}`);
  process.stdout.write('demo: ok\n');
});

/** The ternary pack's round (examples/competitions), or the one line saying why it is skipped: it needs python3 with NumPy here and in the sandbox. */
async function ternaryRound(url: string, adminToken: string, miners: [BtAuthSigner, BtAuthSigner], decisionTimeoutMs: number): Promise<void> {
  const problem = pythonNumpyProblem();
  if (problem !== null) {
    process.stdout.write(`ternary round: skipped (${problem})\n`);
    return;
  }
  const started = Date.now();
  const decisions = await runTernaryRound({ url, adminToken, miners, decisionTimeoutMs, log: (line) => process.stdout.write(`${line}\n`) });
  const summary = decisions.map((d) => `${d.name} ${d.status}`).join(', ');
  process.stdout.write(`ternary round: ok (${summary}; ${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
}

/** How long the demo waits for the reveal of the setter's commit (the local stack's epochs are 11 s). */
const REVEAL_WAIT_MS = 60_000;

/** The weights the stack's weight setter last set or committed (and, for a commit, its reveal); informative only, never fails the demo. */
async function printWeights(url: string): Promise<void> {
  const read = async (): Promise<WeightSetterStatusDto> => (await (await fetch(`${url}/status`, { signal: AbortSignal.timeout(5_000) })).json()) as WeightSetterStatusDto;
  try {
    let status = await read();
    const pass = status.last_pass;
    if (pass === null) {
      process.stdout.write(`weights: the weight setter (${status.hotkey}) has not run a pass yet\n`);
      return;
    }
    const weights = pass.weights.map((w) => `uid ${w.uid} → ${w.value}`).join(', ') || 'none';
    const where = pass.block === null ? '' : ` in block ${pass.block} (tx ${pass.tx_hash})`;
    process.stdout.write(`weights: last pass ${pass.outcome}${where}${pass.reason ? ` (${pass.reason})` : ''}: ${weights}; next allowed block ${status.next_allowed_block ?? 'unknown'}\n`);
    const commit = pass.commit;
    if (commit === null) return;
    process.stdout.write(`weights: timelocked to drand round ${commit.reveal_round}, expected revealed from block ${commit.reveal_block}; waiting for the reveal\n`);
    const deadline = Date.now() + REVEAL_WAIT_MS;
    while (!(status.last_reveal && status.last_reveal.block >= commit.block) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      status = await read();
    }
    const reveal = status.last_reveal;
    if (reveal && reveal.block >= commit.block) process.stdout.write(`weights: ${reveal.outcome} in block ${reveal.block}: ${reveal.weights.map((w) => `uid ${w.uid} → ${w.value}`).join(', ')}\n`);
    else process.stdout.write(`weights: no reveal seen within ${REVEAL_WAIT_MS / 1000} s (curl ${url}/status shows it once it comes)\n`);
  } catch {
    process.stdout.write(`weights: no weight setter answers at ${url} (npm start runs one)\n`);
  }
}
