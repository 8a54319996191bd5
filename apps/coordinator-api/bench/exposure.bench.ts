/**
 * Blum & Hardt's boosting attack ("The Ladder", ICML 2015, §5) played through the coordinator's own release rule
 * (src/exposure/release-rule.ts), exact release vs the held-out budget (DECISIONS §17). n = 4000 hidden binary
 * labels and 4000 fresh ones; the attacker submits k random label vectors, keeps those whose released score
 * improved on the public reference, and submits their coordinate-wise majority; we report that final
 * submission's holdout loss, its fresh loss and the gap. An honest miner whose model is truly 2 × step better
 * than the baseline shows that the budget still releases real progress.
 *
 * Run by tools/bench/exposure.ts (`npm run bench -- exposure`). Pure computation, a few seconds.
 */
import { parseArgs } from 'node:util';
import { MetricDirection, ReleaseState } from '@rcs/contracts';
import { ExposureState, RELEASE_COST_BITS, ReleaseRule, decideRelease } from '../src/exposure/release-rule';

const N = 4000;
const KS = [10, 100, 200, 400];
const SEEDS = [1, 2, 3, 4, 5];
const HONEST_TRIALS = 100;
/**
 * The budget the bench's task opts into: 64 bits (four releases) and a 1/32 grid. The step is the least one, on a
 * grid the 0.5 baseline lies on, that no random submission of the k_max = 1024 a release's cost counts on clears
 * by luck: k_max · P(Z > step/σ) ≤ δ = 0.05 needs step ≥ 3.94σ = 0.0311 with σ = √(0.25/4000). At 0.025 (3.2σ)
 * one random file in ~800 is released, and at k = 400 that alone overfits the budget by ≈ 0.02. `--step=S` tries another.
 */
const STEP = stepArgument(process.argv.slice(2));
const BUDGET_BITS = 64;
const RULE: ReleaseRule = { direction: MetricDirection.Minimize, step: STEP, costBits: RELEASE_COST_BITS };

/** The release step from the bench's arguments (`--step=S`, a positive number below 0.5), else 1/32. */
function stepArgument(args: string[]): number {
  const { values } = parseArgs({ args, options: { step: { type: 'string', default: '0.03125' } }, strict: true });
  const step = Number(values.step);
  if (!(step > 0 && step < 0.5)) throw new RangeError(`--step must be a number in (0, 0.5), not ${values.step}`);
  return step;
}

/** mulberry32: a small seeded generator, so every run prints the same table. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const randomLabels = (random: () => number): Uint8Array => Uint8Array.from({ length: N }, () => (random() < 0.5 ? 1 : 0));

/** The 0/1 loss of predictions against labels. */
function loss(predictions: Uint8Array, labels: Uint8Array): number {
  let wrong = 0;
  for (let i = 0; i < N; i += 1) if (predictions[i] !== labels[i]) wrong += 1;
  return wrong / N;
}

function majority(kept: Uint8Array[], fallback: Uint8Array): Uint8Array {
  if (kept.length === 0) return fallback;
  return Uint8Array.from({ length: N }, (_, i) => (kept.reduce((ones, vector) => ones + vector[i], 0) * 2 > kept.length ? 1 : 0));
}

type Mechanism = 'exact' | 'budget';
interface Outcome {
  holdout: number;
  fresh: number;
  kept: number;
}

/**
 * One attack. The task's first result is the owner's constant baseline (all zeros), released as every task's
 * first result is; then the k random submissions. Exact: every raw score is public, and the attacker keeps a
 * submission whose score beats the baseline's. Budget: the public sees what the release rule releases, and the
 * attacker keeps a submission whose release says `improved`.
 */
function attack(mechanism: Mechanism, k: number, seed: number): Outcome {
  const random = generator(seed * 7919 + k);
  const holdout = randomLabels(random);
  const fresh = randomLabels(random);
  const baseline = new Uint8Array(N);
  let state: ExposureState = { releasedBest: null, spentBits: 0, budgetBits: BUDGET_BITS };
  state = decideRelease(RULE, state, { raw: loss(baseline, holdout) }).state;
  const reference = loss(baseline, holdout);
  const kept: Uint8Array[] = [];
  for (let i = 0; i < k; i += 1) {
    const submission = randomLabels(random);
    const raw = loss(submission, holdout);
    if (mechanism === 'exact') {
      if (raw < reference) kept.push(submission);
      continue;
    }
    const outcome = decideRelease(RULE, state, { raw });
    state = outcome.state;
    if (outcome.release === ReleaseState.Improved) kept.push(submission);
  }
  const final = majority(kept, baseline);
  return { holdout: loss(final, holdout), fresh: loss(final, fresh), kept: kept.length };
}

/** An honest miner: a model right on each item with probability 0.5 + 2 × step, after the baseline's release. Released? */
function honestReleased(seed: number): boolean {
  const random = generator(1_000_003 * seed);
  const holdout = randomLabels(random);
  const model = Uint8Array.from(holdout, (label) => (random() < 0.5 + 2 * STEP ? label : 1 - label));
  const first = decideRelease(RULE, { releasedBest: null, spentBits: 0, budgetBits: BUDGET_BITS }, { raw: loss(new Uint8Array(N), holdout) });
  return decideRelease(RULE, first.state, { raw: loss(model, holdout) }).release === ReleaseState.Improved;
}

const mean = (values: number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length;
const f4 = (value: number): string => value.toFixed(4);

function main(): void {
  process.stdout.write(`boosting attack, n = ${N}, ${SEEDS.length} seeds; budget: step ${STEP}, ${BUDGET_BITS} bits (${RELEASE_COST_BITS} a release)\n`);
  process.stdout.write('| k | mechanism | holdout loss | fresh loss | gap | kept |\n|---|---|---|---|---|---|\n');
  const gaps = new Map<string, number>();
  for (const k of KS) {
    for (const mechanism of ['exact', 'budget'] as const) {
      const runs = SEEDS.map((seed) => attack(mechanism, k, seed));
      const holdout = mean(runs.map((run) => run.holdout));
      const fresh = mean(runs.map((run) => run.fresh));
      gaps.set(`${mechanism}:${k}`, fresh - holdout);
      process.stdout.write(`| ${k} | ${mechanism} | ${f4(holdout)} | ${f4(fresh)} | ${f4(fresh - holdout)} | ${mean(runs.map((run) => run.kept)).toFixed(1)} |\n`);
    }
  }
  const released = Array.from({ length: HONEST_TRIALS }, (_, i) => honestReleased(i + 1)).filter(Boolean).length;
  const percent = (100 * released) / HONEST_TRIALS;
  process.stdout.write(`honest miner (true gain 2 × step = ${2 * STEP}): released in ${released} of ${HONEST_TRIALS} seeds\n`);
  const [exact, budget] = [gaps.get(`exact:400`) ?? NaN, gaps.get(`budget:400`) ?? NaN];
  const met = exact >= 0.05 && budget <= 0.02 && percent >= 90;
  if (!met) process.stdout.write('goals NOT met: exact gap ≥ 0.05, budget gap ≤ 0.02, honest released ≥ 90 % (at k = 400)\n');
  process.stdout.write(`exposure: exact gap ${f4(exact)}, budget gap ${f4(budget)}, honest released ${percent.toFixed(0)} %\n`);
  process.exitCode = met ? 0 : 1;
}

main();
