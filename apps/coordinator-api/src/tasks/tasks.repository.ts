import { EntityManager } from 'typeorm';
import { TaskQueryDto, TaskState } from '@rcs/contracts';
import { TaskEntity } from './entities/task.entity';

export type NewTask = Omit<TaskEntity, 'id' | 'closedAt' | 'createdAt' | 'updatedAt'>;

/** Inserts the task; a taken slug surfaces as the unique violation of `tasks_slug_unique`. */
export function insertTask(manager: EntityManager, task: NewTask): Promise<TaskEntity> {
  return manager.save(TaskEntity, manager.create(TaskEntity, task));
}

/** Newest first (`created_at`, then `id`), optionally in one state, paged. */
export function listTasks(manager: EntityManager, query: TaskQueryDto): Promise<TaskEntity[]> {
  return manager.find(TaskEntity, {
    where: query.task_state ? { taskState: query.task_state } : {},
    order: { createdAt: 'DESC', id: 'DESC' },
    take: query.limit,
    skip: query.offset,
  });
}

/** Outcome of a state move: the state the row had under its lock, and `updatedAt` only when it moved. */
export interface StateMove {
  previousState: TaskState;
  updatedAt: Date | null;
}

/**
 * Moves the task to `to` when its state is one of `from`, in one statement. The row lock is taken
 * first, so `previousState` is the state the move (or refusal) was decided on, even when several
 * moves race. Null when no task has this id (a uuid).
 */
export async function moveTaskState(
  manager: EntityManager,
  taskId: string,
  from: readonly TaskState[],
  to: TaskState,
): Promise<StateMove | null> {
  const rows = (await manager.query(
    `WITH previous AS (
       SELECT id, task_state FROM tasks WHERE id = $1 FOR UPDATE
     ), moved AS (
       UPDATE tasks t
       SET task_state = $2,
           updated_at = now(),
           -- Stamped after the row lock is held (not at statement start): a submission that got in before the
           -- close committed must never look as if it came after it (the best result freezes at closed_at).
           closed_at = CASE WHEN $2 = '${TaskState.Closed}' THEN clock_timestamp() ELSE t.closed_at END
       FROM previous
       WHERE t.id = previous.id AND previous.task_state = ANY($3::text[])
       RETURNING t.updated_at
     )
     SELECT previous.task_state AS previous_state, (SELECT updated_at FROM moved) AS updated_at FROM previous`,
    [taskId, to, from],
  )) as { previous_state: TaskState; updated_at: Date | null }[];
  return rows.length === 0 ? null : { previousState: rows[0].previous_state, updatedAt: rows[0].updated_at };
}
