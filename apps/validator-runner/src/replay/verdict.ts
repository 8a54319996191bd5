import { constants } from 'node:os';
import { VerificationStatus } from '@rcs/contracts';
import type { SandboxRunResult } from '../sandbox/sandbox.port';
import { announcedRejection } from './bitsota-profile';
import type { FailureStatus } from './replay-failure';
import { publicSentence, ResultFileRead } from './result-reader';

export type VerdictStatus = VerificationStatus.Accepted | VerificationStatus.Rejected | VerificationStatus.Error;

/** A verdict and its public note, before redaction. */
export interface Verdict {
  status: VerdictStatus;
  notes: string;
}

/** What the benchmark's verdict depends on besides its run. */
export interface BenchmarkVerdictInput {
  metricName: string;
  /** Finite task metrics observed (result file, else output). */
  observed: Record<string, number>;
  /** The result file as read, or null when the task names none. */
  read: ResultFileRead | null;
  /** Where the task metric came from, for the accepted note. */
  source: string;
  /** The BitSota profile (§15): its benchmarks announce every refusal, so any other failure is the validator's. */
  profile: boolean;
  /**
   * The phase had held-out data (§6, "What a replay may say"): no sandbox text reaches the notes, only a note of
   * the closed list (`benchmark_failed (exit N)`, `timeout`, `metric_missing`, `metric_invalid`, `result_too_large`,
   * `ineligible (<code>)`); the full text stays in the admin replay log.
   */
  heldout: boolean;
  /** `; it hit …` naming sandbox limits the failed command ran into, or ''. */
  limitsHit: string;
}

/** Exit 126/127: the command could not be found or run, which is the validator's environment, not the miner's. */
const NOT_RUNNABLE = new Set([126, 127]);

/** The exit status as a shell reports it: the code, or 128 + the number of the signal that killed it. */
export function exitNumber(result: Pick<SandboxRunResult, 'exitCode' | 'signal'>): number {
  if (result.exitCode !== null) return result.exitCode;
  const signals = constants.signals as Record<string, number>;
  return 128 + (result.signal !== null ? (signals[result.signal] ?? 0) : 0);
}

export function exitDescription(result: Pick<SandboxRunResult, 'exitCode' | 'signal'>): string {
  if (result.exitCode !== null) return `exited with code ${result.exitCode}`;
  return `was killed by ${result.signal ?? 'a signal'}`;
}

/** `ineligible (<code>)`, and in a public phase the rest of the line when it is one short printable sentence. */
function ineligible(code: string, details: string, heldout: boolean): string {
  const sentence = heldout ? null : publicSentence(details);
  return sentence === null ? `ineligible (${code})` : `ineligible (${code}): ${sentence}`;
}

/**
 * The verdict of a benchmark that finished within the time budget (DECISIONS §6 "Whose fault", §15 "Verdicts").
 * A `validator_rejection=<code>` line on a failed run is the benchmark's verdict on the submission: `rejected`.
 * Any other failure: `error` when the command could not run (126/127) or under the profile; else `rejected`.
 */
export function benchmarkVerdict(bench: SandboxRunResult, input: BenchmarkVerdictInput): Verdict {
  const { heldout, metricName } = input;
  if (bench.exitCode !== 0) {
    const rejection = announcedRejection(bench.output);
    if (rejection !== null) return { status: VerificationStatus.Rejected, notes: ineligible(rejection.code, rejection.details, heldout) };
    const code = exitNumber(bench);
    const validatorSide = input.profile || NOT_RUNNABLE.has(code);
    const status = validatorSide ? VerificationStatus.Error : VerificationStatus.Rejected;
    if (heldout) return { status, notes: `benchmark_failed (exit ${code})` };
    const reason = input.read !== null && 'reason' in input.read ? (input.read.reason ?? null) : null;
    const why = reason === null ? '.' : `: ${reason}${/[.!?]$/.test(reason) ? '' : '.'}`;
    const notRunnable = NOT_RUNNABLE.has(code) && bench.exitCode !== null ? ' (the command could not be found or run)' : '';
    return { status, notes: `The benchmark ${exitDescription(bench)}${notRunnable}${input.limitsHit}${why}` };
  }
  if (!Object.hasOwn(input.observed, metricName)) {
    if (!heldout) return { status: VerificationStatus.Rejected, notes: `The benchmark produced no finite ${metricName}.` };
    if (input.read !== null && 'tooLarge' in input.read) return { status: VerificationStatus.Rejected, notes: 'result_too_large' };
    const named = input.read !== null && 'named' in input.read && input.read.named.includes(metricName);
    return { status: VerificationStatus.Rejected, notes: named ? 'metric_invalid' : 'metric_missing' };
  }
  return { status: VerificationStatus.Accepted, notes: `Observed ${metricName}=${input.observed[metricName]} (from ${input.source}).` };
}

/** A failed setup: an announced refusal is the submission's (`rejected`, with its sentence: setup never sees held-out data); anything else the validator's. */
export function setupVerdict(setup: SandboxRunResult, limitsHit: string): { status: FailureStatus; notes: string } {
  const rejection = announcedRejection(setup.output);
  if (rejection !== null) return { status: VerificationStatus.Rejected, notes: ineligible(rejection.code, rejection.details, false) };
  return { status: VerificationStatus.Error, notes: `The setup command ${exitDescription(setup)}${limitsHit}.` };
}

const HOST_PATH = /(^|[\s"'(=])\/[^\s"'),;]*/g;

/** Public notes: private values redacted without their names, and host paths replaced (§6: notes never name either). */
export function publicNotes(text: string, redact: (text: string) => string): string {
  return redact(text).replace(HOST_PATH, '$1[path]');
}
