import { IdeaRewardDto } from '@rcs/contracts';
import { IdeaRewardEntity } from './entities/idea-reward.entity';

export function toIdeaRewardDto(reward: IdeaRewardEntity): IdeaRewardDto {
  return {
    id: reward.id,
    task_id: reward.taskId,
    improved_submission_id: reward.improvedSubmissionId,
    idea_submission_id: reward.ideaSubmissionId,
    proposer_hotkey: reward.proposerHotkey,
    implementer_hotkey: reward.implementerHotkey,
    metric_name: reward.metricName,
    previous_metric_value: reward.previousMetricValue,
    improved_metric_value: reward.improvedMetricValue,
    improvement_amount: reward.improvementAmount,
    created_at: reward.createdAt.toISOString(),
  };
}
