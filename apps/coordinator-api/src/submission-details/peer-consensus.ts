import { PeerConsensusDto, SubmissionStatus } from '@rcs/contracts';
import { verificationStatusOf } from '../decisions/decision-status';
import { SubmissionEntity } from '../submissions/entities/submission.entity';
import { TaskEntity } from '../tasks/entities/task.entity';

/** Evaluations of one submission by verdict. */
export interface PeerCounts {
  accepted: number;
  rejected: number;
  error: number;
}

/**
 * The consensus as the submission records it: `pending` until the evaluation that reached the
 * threshold decided the submission, then its status and (accepted) the median it was decided with.
 */
export function toPeerConsensusDto(submission: SubmissionEntity, task: TaskEntity, counts: PeerCounts): PeerConsensusDto {
  return {
    submission_id: submission.id,
    threshold: task.minPeerEvaluations,
    accepted_count: counts.accepted,
    rejected_count: counts.rejected,
    error_count: counts.error,
    status: verificationStatusOf(submission.status),
    metric_name: task.metricName,
    consensus_metric_value: submission.status === SubmissionStatus.Accepted ? submission.verifiedMetricValue : null,
  };
}
