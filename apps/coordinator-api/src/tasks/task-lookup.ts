import { ApiError, ErrorCode, TaskState } from '@rcs/contracts';
import { TaskEntity } from './entities/task.entity';

/** 409 `task_not_live` unless the task takes new claims and submissions (DECISIONS.md §3). */
export function assertTaskLive(task: Pick<TaskEntity, 'id' | 'slug' | 'taskState'>): void {
  if (task.taskState !== TaskState.Live) {
    throw ApiError.conflict(ErrorCode.TaskNotLive, `Task ${task.slug} is ${task.taskState}; it takes no new claims or submissions.`, {
      task_id: task.id,
      task_state: task.taskState,
    });
  }
}
