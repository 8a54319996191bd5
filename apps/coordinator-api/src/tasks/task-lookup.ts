import { EntityManager } from 'typeorm';
import { ApiError, ErrorCode, TaskState } from '@rcs/contracts';
import { isUuid } from '../common/ids';
import { TaskEntity } from './entities/task.entity';

/** The task, or 404 `task_not_found`. `lock` takes a row lock for the rest of the transaction. */
export async function findTaskOrThrow(
  manager: EntityManager,
  taskId: string,
  options: { lock?: 'update' | 'share' } = {},
): Promise<TaskEntity> {
  const task = isUuid(taskId)
    ? await manager.findOne(TaskEntity, {
        where: { id: taskId },
        ...(options.lock ? { lock: { mode: options.lock === 'update' ? 'pessimistic_write' : 'pessimistic_read' } } : {}),
      })
    : null;
  if (!task) throw ApiError.notFound(ErrorCode.TaskNotFound, `No task with id ${taskId}.`, { task_id: taskId });
  return task;
}

/** 409 `task_not_live` unless the task takes new claims and submissions (DECISIONS.md §3). */
export function assertTaskLive(task: Pick<TaskEntity, 'id' | 'slug' | 'taskState'>): void {
  if (task.taskState !== TaskState.Live) {
    throw ApiError.conflict(ErrorCode.TaskNotLive, `Task ${task.slug} is ${task.taskState}; it takes no new claims or submissions.`, {
      task_id: task.id,
      task_state: task.taskState,
    });
  }
}
