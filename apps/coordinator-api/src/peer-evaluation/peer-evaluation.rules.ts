import { SubmissionStatus, ValidationErrorItem, VerificationStatus } from '@rcs/contracts';
import { finiteNumberItem, validationItem } from '@rcs/http';
import { observedNumber } from '../validator-jobs/observed-result';

/** 422 `type`s of the peer-evaluation rules that no DTO decorator can state. */
export const PeerEvaluationRule = {
  MetricRequired: 'missing',
} as const;

/**
 * The rules on a peer-evaluate body that need the task: `accepted` carries a finite number for the
 * task metric (DECISIONS.md §6). Unstorable text (U+0000, lone surrogates) is refused by the global pipe.
 */
export function peerEvaluationViolations(
  body: { status: VerificationStatus; observed_metrics: Record<string, unknown> },
  metricName: string,
): ValidationErrorItem[] {
  const items: ValidationErrorItem[] = [];
  if (body.status !== VerificationStatus.Accepted) return items;
  const loc = ['body', 'observed_metrics', metricName];
  if (!Object.hasOwn(body.observed_metrics, metricName)) {
    items.push(validationItem(PeerEvaluationRule.MetricRequired, loc, `An accepted evaluation must report the task metric '${metricName}'.`));
  } else if (observedNumber(body.observed_metrics, metricName) === null) {
    items.push(finiteNumberItem(loc, body.observed_metrics[metricName]));
  }
  return items;
}

/** The median; the mean of the middle two for an even count; null for no values. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** What an accepted evaluation observed: the task metric and, when reported as a finite number, the secondary metric. */
export interface AcceptedValue {
  metric: number;
  secondary: number | null;
}

/** The evaluations of one submission, as the consensus counts them. */
export interface PeerVerdicts {
  accepted: AcceptedValue[];
  rejected: number;
  error: number;
}

export type PeerDecision =
  | { status: SubmissionStatus.Accepted; metric: number; secondary: number | null }
  | { status: SubmissionStatus.Rejected | SubmissionStatus.Error };

/**
 * The consensus (spec rule 5, DECISIONS.md §6): once the accepted, rejected or error count reaches
 * `threshold` the submission is decided; accepted takes the median of the accepted metrics, and the
 * median secondary when every accepted evaluation reported one. Null while no count has reached it.
 */
export function peerDecision(verdicts: PeerVerdicts, threshold: number): PeerDecision | null {
  const metric = median(verdicts.accepted.map((value) => value.metric));
  if (verdicts.accepted.length >= threshold && metric !== null) {
    const secondaries = verdicts.accepted.map((value) => value.secondary);
    const secondary = secondaries.every((value): value is number => value !== null) ? median(secondaries) : null;
    return { status: SubmissionStatus.Accepted, metric, secondary };
  }
  if (verdicts.rejected >= threshold) return { status: SubmissionStatus.Rejected };
  if (verdicts.error >= threshold) return { status: SubmissionStatus.Error };
  return null;
}
