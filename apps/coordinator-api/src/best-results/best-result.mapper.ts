import { BestResultChangeDto, BestResultDto } from '@rcs/contracts';
import { BestResultChangeEntity } from './entities/best-result-change.entity';
import { BestResultEntity } from './entities/best-result.entity';

export function toBestResultDto(best: BestResultEntity): BestResultDto {
  return {
    task_id: best.taskId,
    submission_id: best.submissionId,
    metric_name: best.metricName,
    metric_direction: best.metricDirection,
    // Tasks declare no unit for their metric.
    metric_unit: null,
    metric_value: best.metricValue,
    miner_hotkey: best.minerHotkey,
    updated_at: best.updatedAt.toISOString(),
  };
}

export function toBestResultChangeDto(change: BestResultChangeEntity): BestResultChangeDto {
  return {
    task_id: change.taskId,
    submission_id: change.submissionId,
    miner_hotkey: change.minerHotkey,
    metric_value: change.metricValue,
    secondary_metric_value: change.secondaryMetricValue,
    previous_submission_id: change.previousSubmissionId,
    previous_metric_value: change.previousMetricValue,
    changed_at: change.createdAt.toISOString(),
  };
}
