import { PeerEvaluationDto } from '@rcs/contracts';
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
