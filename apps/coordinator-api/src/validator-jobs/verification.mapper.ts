import { VerificationSummaryDto } from '@rcs/contracts';
import { VerificationEntity } from './entities/verification.entity';

/** The public summary (DECISIONS.md §6): everything but the replay log, which only admins read. */
export function toVerificationSummaryDto(verification: VerificationEntity): VerificationSummaryDto {
  return {
    id: verification.id,
    submission_id: verification.submissionId,
    job_id: verification.jobId,
    task_id: verification.taskId,
    validator_hotkey: verification.validatorHotkey,
    status: verification.status,
    metric_name: verification.metricName,
    metric_value: verification.metricValue,
    observed_metrics: verification.observedMetrics,
    notes: verification.notes,
    created_at: verification.createdAt.toISOString(),
  };
}
