import { PeerConsensusDto, PeerEvaluationDto, SubmissionStatus } from '@rcs/contracts';
import { verificationStatusOf } from '../decisions/decision-status';
import { SubmissionEntity } from '../submissions/entities/submission.entity';
import { TaskEntity } from '../tasks/entities/task.entity';
import { PeerEvaluationEntity } from './entities/peer-evaluation.entity';

export function toPeerEvaluationDto(evaluation: PeerEvaluationEntity): PeerEvaluationDto {
  return {
    id: evaluation.id,
    submission_id: evaluation.submissionId,
    evaluator_hotkey: evaluation.evaluatorHotkey,
    status: evaluation.status,
    observed_metrics: evaluation.observedMetrics,
    notes: evaluation.notes,
    created_at: evaluation.createdAt.toISOString(),
    completed_at: evaluation.completedAt?.toISOString() ?? null,
  };
}

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
