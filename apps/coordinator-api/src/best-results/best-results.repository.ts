import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { BestResultChangeEntity } from './entities/best-result-change.entity';
import { BestResultEntity } from './entities/best-result.entity';

/** A conditional write of `best_results` found the row not as read: the caller did not hold the task lock. */
export class BestResultRaceError extends Error {
  constructor(taskId: string) {
    super(`best_results of task ${taskId} changed under a decision; the task row lock was not held`);
    this.name = 'BestResultRaceError';
  }
}

export type BestValues = Omit<BestResultEntity, 'updatedAt'>;

/** The best_results and best_result_changes tables, always through the caller's manager (decisions write them under the task lock). */
@Injectable()
export class BestResultsRepository {
  /**
   * Makes `values` the task's best, replacing `previousSubmissionId` (null: there was none). A plain
   * INSERT or a conditional UPDATE, never an upsert, so a decision that skipped the task lock fails
   * loudly instead of overwriting a best it never ranked against.
   */
  async write(manager: EntityManager, values: BestValues, previousSubmissionId: string | null): Promise<void> {
    // clock_timestamp(), not now(): decisions of a task commit in lock order, not in transaction-start order.
    const updatedAt = (): string => 'clock_timestamp()';
    if (previousSubmissionId === null) {
      await manager.insert(BestResultEntity, { ...values, updatedAt });
      return;
    }
    const { affected } = await manager
      .createQueryBuilder()
      .update(BestResultEntity)
      .set({ ...values, updatedAt })
      .where('task_id = :taskId AND submission_id = :previousSubmissionId', { taskId: values.taskId, previousSubmissionId })
      .execute();
    if (affected !== 1) throw new BestResultRaceError(values.taskId);
  }

  /** The task (null: no such task) and its best (null before the first accepted result), in one query. */
  async findTaskBest(manager: EntityManager, taskId: string): Promise<{ taskId: string; slug: string; best: BestResultEntity | null } | null> {
    const [row] = (await manager.query(
      `SELECT t.id AS task_id, t.slug, b.submission_id, b.metric_name, b.metric_direction, b.metric_value, b.secondary_metric_value,
              b.miner_hotkey, b.updated_at
       FROM tasks t LEFT JOIN best_results b ON b.task_id = t.id
       WHERE t.id = $1`,
      [taskId],
    )) as ({ task_id: string; slug: string; submission_id: string | null } & Record<string, unknown>)[];
    if (row === undefined) return null;
    if (row.submission_id === null) return { taskId: row.task_id, slug: row.slug, best: null };
    const best = Object.assign(new BestResultEntity(), {
      taskId: row.task_id,
      submissionId: row.submission_id,
      metricName: row.metric_name as string,
      metricDirection: row.metric_direction as BestResultEntity['metricDirection'],
      metricValue: row.metric_value as number,
      secondaryMetricValue: row.secondary_metric_value as number | null,
      minerHotkey: row.miner_hotkey as string,
      updatedAt: row.updated_at as Date,
    });
    return { taskId: row.task_id, slug: row.slug, best };
  }

  /** The task's best, null before the first accepted result. */
  find(manager: EntityManager, taskId: string): Promise<BestResultEntity | null> {
    return manager.findOneBy(BestResultEntity, { taskId });
  }

  /** Copies the task's best, just written, into its history, with what it replaced; the change time is the best's updated_at. */
  async recordChange(manager: EntityManager, taskId: string, previous: BestResultEntity | null): Promise<void> {
    await manager.query(
      `INSERT INTO best_result_changes (task_id, submission_id, previous_submission_id, metric_value, previous_metric_value,
                                        secondary_metric_value, miner_hotkey, created_at)
       SELECT task_id, submission_id, $2, metric_value, $3, secondary_metric_value, miner_hotkey, updated_at
       FROM best_results WHERE task_id = $1`,
      [taskId, previous?.submissionId ?? null, previous?.metricValue ?? null],
    );
  }

  /** Oldest first: the order in which the best changed. */
  listChanges(manager: EntityManager, taskId: string, page: { limit: number; offset: number }): Promise<BestResultChangeEntity[]> {
    return manager.find(BestResultChangeEntity, {
      where: { taskId },
      order: { createdAt: 'ASC', id: 'ASC' },
      take: page.limit,
      skip: page.offset,
    });
  }

  /**
   * Whether a closed task's best is frozen for this submission: it is, except for submissions made
   * before the close (DECISIONS.md §3). Compared in SQL: the timestamps have microseconds, a JS Date only milliseconds.
   */
  async isFrozenFor(manager: EntityManager, taskId: string, submissionId: string): Promise<boolean> {
    const [row] = (await manager.query(
      `SELECT coalesce(s.created_at >= t.closed_at, true) AS frozen FROM tasks t, submissions s WHERE t.id = $1 AND s.id = $2`,
      [taskId, submissionId],
    )) as { frozen: boolean }[];
    return row.frozen;
  }
}
