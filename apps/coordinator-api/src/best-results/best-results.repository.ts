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

/**
 * Makes `values` the task's best, replacing `previousSubmissionId` (null: there was none). A plain
 * INSERT or a conditional UPDATE, never an upsert, so a decision that skipped the task lock fails
 * loudly instead of overwriting a best it never ranked against.
 */
export async function writeBest(manager: EntityManager, values: BestValues, previousSubmissionId: string | null): Promise<void> {
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
export async function findTaskBest(manager: EntityManager, taskId: string): Promise<{ taskId: string; slug: string; best: BestResultEntity | null } | null> {
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

export function findBest(manager: EntityManager, taskId: string): Promise<BestResultEntity | null> {
  return manager.findOneBy(BestResultEntity, { taskId });
}

/** Copies the task's best, just written, into its history, with what it replaced; the change time is the best's updated_at. */
export async function recordBestChange(manager: EntityManager, taskId: string, previous: BestResultEntity | null): Promise<void> {
  await manager.query(
    `INSERT INTO best_result_changes (task_id, submission_id, previous_submission_id, metric_value, previous_metric_value,
                                      secondary_metric_value, miner_hotkey, created_at)
     SELECT task_id, submission_id, $2, metric_value, $3, secondary_metric_value, miner_hotkey, updated_at
     FROM best_results WHERE task_id = $1`,
    [taskId, previous?.submissionId ?? null, previous?.metricValue ?? null],
  );
}

/** Oldest first: the order in which the best changed. */
export function listBestChanges(manager: EntityManager, taskId: string, page: { limit: number; offset: number }): Promise<BestResultChangeEntity[]> {
  return manager.find(BestResultChangeEntity, {
    where: { taskId },
    order: { createdAt: 'ASC', id: 'ASC' },
    take: page.limit,
    skip: page.offset,
  });
}
