import { ApiError, ErrorCode, TaskState } from '@rcs/contracts';
import { TaskEntity } from './entities/task.entity';

/** 409 `task_not_live` unless the task takes new claims and submissions (DECISIONS.md §3). */
export function assertTaskLive(task: Pick<TaskEntity, 'id' | 'slug' | 'taskState'>): void {
  if (task.taskState !== TaskState.Live) throw taskNotLive(task.id, task.slug, task.taskState);
}

/** The 409 `task_not_live` of a task in `state`. */
export function taskNotLive(taskId: string, slug: string, state: TaskState): ApiError {
  return ApiError.conflict(ErrorCode.TaskNotLive, `Task ${slug} is ${state}; it takes no new claims or submissions.`, { task_id: taskId, task_state: state });
}

/** 404 `task_not_found`: the one wording of an unknown task id. */
export function taskNotFound(taskId: string): ApiError {
  return ApiError.notFound(ErrorCode.TaskNotFound, `No task with id ${taskId}.`, { task_id: taskId });
}
