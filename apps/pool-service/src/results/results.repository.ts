import { Injectable } from '@nestjs/common';
import { intColumn, queryRows, textColumn } from '@rcs/persistence';
import { EntityManager } from 'typeorm';
import { ResultEntity } from './entities/result.entity';
import { SotaEntity } from './entities/sota.entity';

export interface ResultRow {
  result: ResultEntity;
  algorithmDsl: string;
}

export interface ResultFilter {
  status: 'pending' | 'verified';
  taskType?: string;
  minScore?: number;
  limit: number;
}

/** Results pending verification or verified, and the SOTA threshold of each task type. */
@Injectable()
export class ResultsRepository {
  /** The threshold row, or null while the task type still has its initial threshold. */
  findSota(manager: EntityManager, taskType: string): Promise<SotaEntity | null> {
    return manager.findOneBy(SotaEntity, { taskType });
  }

  /** A pending result for the scored algorithm; the unique index keeps one per algorithm. */
  async insertPending(manager: EntityManager, r: { algorithmId: number; taskType: string; minerHotkey: string | null; score: number; evaluations: number }): Promise<void> {
    await manager.query(
      `INSERT INTO results (algorithm_id, task_type, miner_hotkey, score, evaluations, status) VALUES ($1, $2, $3, $4, $5, 'pending')
       ON CONFLICT (algorithm_id) DO NOTHING`,
      [r.algorithmId, r.taskType, r.minerHotkey, r.score, r.evaluations],
    );
  }

  lock(manager: EntityManager, id: number): Promise<ResultEntity | null> {
    return manager.findOne(ResultEntity, { where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  async markVerified(manager: EntityManager, id: number, validatorHotkey: string): Promise<void> {
    await manager.query(`UPDATE results SET status = 'verified', verified_by = $2, verified_at = now() WHERE id = $1 AND status = 'pending'`, [
      id,
      validatorHotkey,
    ]);
  }

  /** Raises the task type's threshold to `score` when higher (from `initial` when it has no row yet). */
  /** True when the threshold rose. */
  async raiseSota(manager: EntityManager, taskType: string, score: number, resultId: number, initial: number): Promise<boolean> {
    if (!(score > initial)) return false;
    const rows = await queryRows(
      manager,
      `INSERT INTO sota_thresholds (task_type, threshold, result_id, updated_at) VALUES ($1, $2, $3, now())
       ON CONFLICT (task_type) DO UPDATE SET threshold = EXCLUDED.threshold, result_id = EXCLUDED.result_id, updated_at = now()
       WHERE sota_thresholds.threshold < EXCLUDED.threshold
       RETURNING task_type`,
      [taskType, score, resultId],
      (row) => textColumn(row, 'task_type'),
    );
    return rows.length === 1;
  }

  async list(manager: EntityManager, filter: ResultFilter): Promise<ResultRow[]> {
    const conditions = ['r.status = $1'];
    const params: unknown[] = [filter.status, filter.limit];
    if (filter.taskType !== undefined) conditions.push(`r.task_type = $${params.push(filter.taskType)}`);
    if (filter.minScore !== undefined) conditions.push(`r.score >= $${params.push(filter.minScore)}`);
    const ids = await queryRows(
      manager,
      `SELECT r.id FROM results r WHERE ${conditions.join(' AND ')} ORDER BY r.created_at DESC, r.id DESC LIMIT $2`,
      params,
      (row) => intColumn(row, 'id'),
    );
    if (ids.length === 0) return [];
    const results = await manager.createQueryBuilder(ResultEntity, 'r').where('r.id IN (:...ids)', { ids }).getMany();
    const dsl = await queryRows(manager, `SELECT r.id, a.algorithm_dsl FROM results r JOIN algorithms a ON a.id = r.algorithm_id WHERE r.id = ANY($1::int[])`, [ids], (row) => ({
      id: intColumn(row, 'id'),
      algorithm_dsl: textColumn(row, 'algorithm_dsl'),
    }));
    const byId = new Map(results.map((result) => [result.id, result]));
    const dslById = new Map(dsl.map((row) => [row.id, row.algorithm_dsl]));
    return ids.map((id) => ({ result: byId.get(id) as ResultEntity, algorithmDsl: dslById.get(id) ?? '' }));
  }
}
