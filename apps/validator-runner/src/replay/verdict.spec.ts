import { VerificationStatus } from '@rcs/contracts';
import type { SandboxRunResult } from '../sandbox/sandbox.port';
import { announcedRejection, rotationEnv, usesProfile } from './bitsota-profile';
import { Redactor } from './redaction';
import { benchmarkVerdict, BenchmarkVerdictInput, exitNumber, publicNotes, setupVerdict } from './verdict';

const run = (exitCode: number | null, output = '', signal: NodeJS.Signals | null = null): SandboxRunResult => ({
  exitCode,
  signal,
  timedOut: false,
  durationMs: 1,
  outputTruncated: false,
  output,
});
const input = (fields: Partial<BenchmarkVerdictInput> = {}): BenchmarkVerdictInput => ({
  metricName: 'heldout_ppl',
  observed: {},
  read: null,
  source: 'result.json',
  profile: false,
  heldout: false,
  limitsHit: '',
  ...fields,
});
const { Accepted, Rejected, Error } = VerificationStatus;
const LEAK = 'row 17: the quick brown fox';

describe('benchmark verdicts (DECISIONS §6 whose fault, §15 verdicts)', () => {
  it('takes the last validator_rejection= line of a failed run as the verdict on the submission', () => {
    const output = `loading\nvalidator_rejection=too_large first\nvalidator_rejection=high_precision_fraction 12.0 % over the cap of 10 %\n`;
    expect(benchmarkVerdict(run(1, output), input({ profile: true, heldout: true }))).toEqual({ status: Rejected, notes: 'ineligible (high_precision_fraction)' });
    // In a phase without held-out data its sentence is public too.
    expect(benchmarkVerdict(run(1, output), input({ profile: true }))).toEqual({ status: Rejected, notes: 'ineligible (high_precision_fraction): 12.0 % over the cap of 10 %' });
  });

  it('under the profile, any other non-zero exit is the validator’s side', () => {
    expect(benchmarkVerdict(run(1, 'Traceback: KeyError'), input({ profile: true, heldout: true }))).toEqual({ status: Error, notes: 'benchmark_failed (exit 1)' });
    expect(benchmarkVerdict(run(null, '', 'SIGKILL'), input({ profile: true, heldout: true }))).toEqual({ status: Error, notes: 'benchmark_failed (exit 137)' });
    // A malformed code is no announcement.
    expect(benchmarkVerdict(run(1, 'validator_rejection=Bad-Code'), input({ profile: true, heldout: true })).status).toBe(Error);
  });

  it('without the profile a failed benchmark is the miner’s, unless its command could not run (126/127)', () => {
    expect(benchmarkVerdict(run(3), input())).toEqual({ status: Rejected, notes: 'The benchmark exited with code 3.' });
    expect(benchmarkVerdict(run(3), input({ heldout: true }))).toEqual({ status: Rejected, notes: 'benchmark_failed (exit 3)' });
    expect(benchmarkVerdict(run(127), input())).toEqual({ status: Error, notes: 'The benchmark exited with code 127 (the command could not be found or run).' });
    expect(benchmarkVerdict(run(126), input({ heldout: true }))).toEqual({ status: Error, notes: 'benchmark_failed (exit 126)' });
  });

  it('a phase with held-out data says nothing of its own: no result-file error, only the closed list', () => {
    const read = { metrics: {}, named: ['error'], reason: LEAK };
    expect(benchmarkVerdict(run(2), input({ read })).notes).toBe(`The benchmark exited with code 2: ${LEAK}.`);
    expect(benchmarkVerdict(run(2), input({ read, heldout: true })).notes).toBe('benchmark_failed (exit 2)');
    expect(benchmarkVerdict(run(0), input({ read, heldout: true }))).toEqual({ status: Rejected, notes: 'metric_missing' });
    expect(benchmarkVerdict(run(0), input({ read: { metrics: {}, named: ['heldout_ppl'] }, heldout: true }))).toEqual({ status: Rejected, notes: 'metric_invalid' });
    expect(benchmarkVerdict(run(0), input({ read: { problem: 'too big', tooLarge: true }, heldout: true }))).toEqual({ status: Rejected, notes: 'result_too_large' });
    expect(benchmarkVerdict(run(0), input())).toEqual({ status: Rejected, notes: 'The benchmark produced no finite heldout_ppl.' });
  });

  it('accepts a finite task metric from a run that exited 0', () => {
    expect(benchmarkVerdict(run(0), input({ observed: { heldout_ppl: 321.125 }, profile: true, heldout: true }))).toEqual({
      status: Accepted,
      notes: 'Observed heldout_ppl=321.125 (from result.json).',
    });
  });

  it('a setup refusal is the submission’s, with its sentence (setup never sees held-out data); other setup failures the validator’s', () => {
    expect(setupVerdict(run(1, 'validator_rejection=rescue_fraction 12.0 % of weights are 4-bit rescue\n'), '')).toEqual({
      status: Rejected,
      notes: 'ineligible (rescue_fraction): 12.0 % of weights are 4-bit rescue',
    });
    expect(setupVerdict(run(4), '')).toEqual({ status: Error, notes: 'The setup command exited with code 4.' });
  });

  it('exit numbers follow the shell: 128 + the signal', () => {
    expect(exitNumber({ exitCode: null, signal: 'SIGTERM' })).toBe(143);
    expect(exitNumber({ exitCode: 5, signal: null })).toBe(5);
  });
});

describe('public notes (§6: no host paths, no private names)', () => {
  it('redacts without naming the variable and replaces host paths', () => {
    const redactor = new Redactor({ AUTORESEARCH_PRIVATE_HELDOUT_URL: 'http://127.0.0.1:9/x', DATASET_MIX: 'private-mix-0.7' });
    const text = 'could not read /var/lib/runner/work/job-1/heldout/rows.txt (private-mix-0.7) from http://127.0.0.1:9/x; exit 1 at 12:42';
    expect(publicNotes(text, (t) => redactor.redactPublic(t))).toBe('could not read [path] ([redacted]) from [redacted]; exit 1 at 12:42');
  });
});

describe('the profile', () => {
  it('applies to a task with any AUTORESEARCH_ key or RCS_REPLAY_PROFILE=bitsota-autoresearch-v1', () => {
    expect(usesProfile({ AUTORESEARCH_PRIVATE_HELDOUT_SHARD: 'coordinator' })).toBe(true);
    expect(usesProfile({ RCS_REPLAY_PROFILE: 'bitsota-autoresearch-v1' })).toBe(true);
    expect(usesProfile({ HELDOUT_SHARD: 'coordinator' })).toBe(false);
  });

  it('exports the rotation pair, the task’s own values winning (a fixed rotation)', () => {
    const rotation = { slot: 12, number: 'ab'.repeat(16) };
    expect(rotationEnv(rotation, {})).toEqual({ AUTORESEARCH_HELDOUT_SYNC_SLOT: '12', AUTORESEARCH_HELDOUT_SYNC_NUMBER: 'ab'.repeat(16) });
    expect(rotationEnv(rotation, { AUTORESEARCH_HELDOUT_SYNC_SLOT: '1' })).toMatchObject({ AUTORESEARCH_HELDOUT_SYNC_SLOT: '1' });
    expect(rotationEnv(null, {})).toEqual({});
  });

  it('reads a refusal line only when its code is [a-z_]{1,64}', () => {
    expect(announcedRejection('validator_rejection=x_y\r\n')).toEqual({ code: 'x_y', details: '' });
    expect(announcedRejection(`validator_rejection=${'a'.repeat(65)}`)).toBeNull();
    expect(announcedRejection('note: validator_rejection=x')).toBeNull();
  });
});
