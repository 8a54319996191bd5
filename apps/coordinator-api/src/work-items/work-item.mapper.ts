import { WorkItemDto } from '@rcs/contracts';
import { WorkItemEntity } from './entities/work-item.entity';

export function toWorkItemDto(item: WorkItemEntity): WorkItemDto {
  return {
    id: item.id,
    task_id: item.taskId,
    title: item.title,
    description: item.description,
    priority: item.priority,
    status: item.status,
    source: item.source,
    idea_submission_id: item.ideaSubmissionId,
    parent_submission_id: item.parentSubmissionId,
    claim_id: item.claimId,
    completed_submission_id: item.completedSubmissionId,
    created_at: item.createdAt.toISOString(),
    updated_at: item.updatedAt.toISOString(),
  };
}
