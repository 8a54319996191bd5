import { isDeepStrictEqual } from 'node:util';
import { ValidationErrorItem, VerificationStatus, VerifyDto } from '@rcs/contracts';
import { missingItem, validationItem } from '@rcs/http';

/** 422 `type`s of the result rules that no DTO decorator can state (DECISIONS.md §6). */
export const ResultRule = {
  FiniteNumber: 'finite_number',
  SubmissionMismatch: 'submission_mismatch',
} as const;

/** What a validator observed, as it is stored and compared: observed metrics as plain JSON. */
export interface ObservedResult {
  status: VerificationStatus;
  observedMetrics: Record<string, unknown>;
  notes: string | null;
  replayLog: string | null;
  /** The task metric per held-out item (`per_item`), when the benchmark reported it. */
  perItem?: number[] | null;
}

/** The metric names a result is read with. */
export interface MetricNames {
  metricName: string;
  secondaryMetricName: string | null;
}

/** The value of `name` in the observed metrics when it is a finite number, else null. */
export function observedNumber(observed: Record<string, unknown>, name: string | null): number | null {
  if (name === null || !Object.hasOwn(observed, name)) return null;
  const value = observed[name];
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** `accepted` stands only on an observed, finite task metric (claimed metrics never count). */
export function resultViolations(body: VerifyDto, metrics: MetricNames): ValidationErrorItem[] {
  if (body.status !== VerificationStatus.Accepted || observedNumber(body.observed_metrics, metrics.metricName) !== null) return [];
  const loc = ['body', 'observed_metrics', metrics.metricName];
  if (!Object.hasOwn(body.observed_metrics, metrics.metricName)) {
    return [{ ...missingItem(loc), msg: `An accepted result needs the observed task metric "${metrics.metricName}".` }];
  }
  return [
    validationItem(
      ResultRule.FiniteNumber,
      loc,
      `The observed task metric "${metrics.metricName}" must be a finite number for an accepted result.`,
      body.observed_metrics[metrics.metricName],
    ),
  ];
}

/** The body as it will be stored: observed metrics through a JSON round trip, as the jsonb column keeps them. */
export function toObservedResult(body: VerifyDto): ObservedResult {
  return {
    status: body.status,
    observedMetrics: asStoredJson(body.observed_metrics),
    notes: body.notes,
    replayLog: body.replay_log,
    perItem: body.per_item,
  };
}

/** Whether a re-post carries the result already recorded: same verdict, notes, log and observed metrics as JSON values. */
export function sameResult(recorded: ObservedResult, posted: ObservedResult): boolean {
  return (
    recorded.status === posted.status &&
    recorded.notes === posted.notes &&
    recorded.replayLog === posted.replayLog &&
    isDeepStrictEqual(asStoredJson(recorded.observedMetrics), asStoredJson(posted.observedMetrics))
  );
}

// A number too large for a double parses to Infinity and is stored as null: compare what is stored.
function asStoredJson(value: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
}
