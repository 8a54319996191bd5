import { VerificationSummaryDto } from '@rcs/contracts';
import { VerificationEntity } from './entities/verification.entity';

/**
 * The public summary (DECISIONS.md §6): everything but the replay log, which only admins read. While its shard is
 * active, a budgeted result shows its released value only, never the raw metrics (DECISIONS §17).
 */
export function toVerificationSummaryDto(verification: VerificationEntity, reader: 'public' | 'validator' = 'public'): VerificationSummaryDto {
  // The validator that posted the result (or verified it) already knows the raw metric.
  const withheld = verification.metricWithheld && reader === 'public';
  const released = verification.releasedMetricValue;
  return {
    id: verification.id,
    submission_id: verification.submissionId,
    job_id: verification.jobId,
    task_id: verification.taskId,
    validator_hotkey: verification.validatorHotkey,
    status: verification.status,
    metric_name: verification.metricName,
    metric_value: withheld ? released : verification.metricValue,
    observed_metrics: withheld ? (released === null ? {} : { [verification.metricName]: released }) : verification.observedMetrics,
    notes: verification.notes,
    created_at: verification.createdAt.toISOString(),
  };
}
