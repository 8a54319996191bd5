import { Injectable } from '@nestjs/common';
import { EntityManager, In } from 'typeorm';
import { isUuid, TaskQueryDto, TaskState } from '@rcs/contracts';
import { rowLock, RowLock } from '@rcs/persistence';
import { HeldoutBudget, TaskEntity } from './entities/task.entity';
import { taskNotFound } from './task-lookup';

export type NewTask = Omit<TaskEntity, 'id' | 'closedAt' | 'createdAt' | 'updatedAt'>;

/** Outcome of a state move: the state the row had under its lock, and `updatedAt` only when it moved. */
export interface StateMove {
  previousState: TaskState;
  updatedAt: Date | null;
}

/** The tasks table, always through the caller's manager (other domains lock and read tasks inside their own transaction). */
@Injectable()
export class TasksRepository {
  /** Inserts the task; a taken slug surfaces as the unique violation of `tasks_slug_unique`. */
  insert(manager: EntityManager, task: NewTask): Promise<TaskEntity> {
    return manager.save(TaskEntity, manager.create(TaskEntity, task));
  }

  /** Newest first (`created_at`, then `id`), optionally in one state, paged. */
  list(manager: EntityManager, query: TaskQueryDto): Promise<TaskEntity[]> {
    return manager.find(TaskEntity, {
      where: query.task_state ? { taskState: query.task_state } : {},
      order: { createdAt: 'DESC', id: 'DESC' },
      take: query.limit,
      skip: query.offset,
    });
  }

  /** Stores the task's held-out budget (the caller holds the row lock). */
  async setBudget(manager: EntityManager, taskId: string, budget: HeldoutBudget | null): Promise<void> {
    await manager.query(`UPDATE tasks SET heldout_budget = $2::jsonb, updated_at = now() WHERE id = $1`, [taskId, budget === null ? null : JSON.stringify(budget)]);
  }

  /** The tasks with these ids, in no particular order. */
  findMany(manager: EntityManager, taskIds: string[]): Promise<TaskEntity[]> {
    return manager.find(TaskEntity, { where: { id: In(taskIds) } });
  }

  /** The task, or 404 `task_not_found`. `lock` takes a row lock for the rest of the transaction. */
  async findOrThrow(manager: EntityManager, taskId: string, options: { lock?: RowLock } = {}): Promise<TaskEntity> {
    const task = isUuid(taskId) ? await manager.findOne(TaskEntity, { where: { id: taskId }, ...rowLock(options.lock) }) : null;
    if (!task) throw taskNotFound(taskId);
    return task;
  }

  /**
   * Moves the task to `to` when its state is one of `from`, in one statement. The row lock is taken
   * first, so `previousState` is the state the move (or refusal) was decided on, even when several
   * moves race. Null when no task has this id (a uuid).
   */
  async moveState(manager: EntityManager, taskId: string, from: readonly TaskState[], to: TaskState): Promise<StateMove | null> {
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
}
