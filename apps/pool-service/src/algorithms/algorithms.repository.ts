import { Injectable } from '@nestjs/common';
import { intColumn, nullableFloatColumn, queryOneRow, queryRows } from '@rcs/persistence';
import { EntityManager } from 'typeorm';
import { entityFromRow } from '../common/entity-rows';
import { dslHash } from './dsl';
import { AlgorithmEntity } from './entities/algorithm.entity';
import { EvaluationEntity } from './entities/evaluation.entity';

export interface NewAlgorithm {
  taskType: string;
  algorithmDsl: string;
  inputDim: number;
  parentIds: number[];
  /** The bar of the improvement bonus: the parents the author's assignment offered and the ones it named. */
  barParentIds: number[];
  /** null for seeds. */
  authorHotkey: string | null;
  authorOwner: string | null;
}

/** A miner as batches see it: its hotkey and the owner coldkey it is grouped under (DECISIONS.md §11). */
export interface MinerIdentity {
  hotkey: string;
  owner: string;
}

/** `$2` = the miner's hotkey, `$3` = its owner: not authored under the owner, not evaluated by the miner or its owner. */
const EVALUABLE_BY = `a.author_owner IS DISTINCT FROM $3 AND a.author_hotkey IS DISTINCT FROM $2
  AND NOT EXISTS (SELECT 1 FROM evaluations e WHERE e.algorithm_id = a.id AND (e.owner_coldkey = $3 OR e.miner_hotkey = $2))`;

/** Algorithms and their evaluations. */
@Injectable()
export class AlgorithmsRepository {
  /** Inserts the algorithm unless its normalised DSL already exists in its task type; null then. */
  async insert(manager: EntityManager, a: NewAlgorithm): Promise<number | null> {
    const ids = await queryRows(
      manager,
      `INSERT INTO algorithms (task_type, algorithm_dsl, dsl_hash, input_dim, parent_ids, bar_parent_ids, author_hotkey, author_owner, source, status)
       VALUES ($1, $2, $3, $4, $5::int[], $6::int[], $7, $8, $9, 'pending')
       ON CONFLICT (task_type, dsl_hash) DO NOTHING
       RETURNING id`,
      [a.taskType, a.algorithmDsl, dslHash(a.algorithmDsl), a.inputDim, a.parentIds, a.barParentIds, a.authorHotkey, a.authorOwner, a.authorHotkey === null ? 'seed' : 'evolution'],
      (row) => intColumn(row, 'id'),
    );
    return ids[0] ?? null;
  }

  /** The id of the algorithm `dsl` duplicates in its task type (call after `insert` answered null, in its transaction). */
  async idOfDuplicate(manager: EntityManager, taskType: string, dsl: string): Promise<number> {
    return queryOneRow(manager, `SELECT id FROM algorithms WHERE task_type = $1 AND dsl_hash = $2`, [taskType, dslHash(dsl)], (row) => intColumn(row, 'id'));
  }

  /**
   * Pending algorithms `miner` may evaluate: none authored under its owner, none its owner evaluated already;
   * fewest evaluations first, at random among a few times `limit` of the least evaluated, so that concurrent
   * miners spread out.
   */
  async evaluableBy(manager: EntityManager, miner: MinerIdentity, taskType: string, limit: number): Promise<AlgorithmEntity[]> {
    return queryRows(
      manager,
      `SELECT * FROM (
         SELECT a.* FROM algorithms a
         WHERE a.status = 'pending' AND a.task_type = $1 AND ${EVALUABLE_BY}
         ORDER BY a.evaluations_count
         LIMIT $4 * 4
       ) candidates
       ORDER BY evaluations_count, random()
       LIMIT $4`,
      [taskType, miner.hotkey, miner.owner, limit],
      (row) => entityFromRow(manager, AlgorithmEntity, row),
    );
  }

  async countEvaluableBy(manager: EntityManager, miner: MinerIdentity, taskType: string): Promise<number> {
    return queryOneRow(
      manager,
      `SELECT count(*)::int AS n FROM algorithms a WHERE a.status = 'pending' AND a.task_type = $1 AND ${EVALUABLE_BY}`,
      [taskType, miner.hotkey, miner.owner],
      (row) => intColumn(row, 'n'),
    );
  }

  /** Parents for evolution: the best scored algorithms of the task type not authored under `owner`, or its seeds while there are none. */
  async parentsFor(manager: EntityManager, owner: string, taskType: string, limit: number): Promise<AlgorithmEntity[]> {
    const scored = await this.bestScored(manager, owner, taskType, limit);
    if (scored.length > 0) return scored;
    return manager.find(AlgorithmEntity, { where: { taskType, source: 'seed' }, order: { id: 'ASC' }, take: limit });
  }

  /** The best scored algorithms of the task type, none authored under `owner`. */
  async bestScored(manager: EntityManager, owner: string, taskType: string, limit: number): Promise<AlgorithmEntity[]> {
    return queryRows(
      manager,
      `SELECT * FROM algorithms WHERE task_type = $1 AND status = 'scored' AND author_owner IS DISTINCT FROM $2
       ORDER BY consensus_score DESC, id LIMIT $3`,
      [taskType, owner, limit],
      (row) => entityFromRow(manager, AlgorithmEntity, row),
    );
  }

  byIds(manager: EntityManager, ids: number[]): Promise<AlgorithmEntity[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return manager.createQueryBuilder(AlgorithmEntity, 'a').where('a.id IN (:...ids)', { ids }).orderBy('a.id').getMany();
  }

  /** Locks the algorithm rows in id order (so two submissions sharing algorithms cannot deadlock). */
  lockMany(manager: EntityManager, ids: number[]): Promise<AlgorithmEntity[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return manager
      .createQueryBuilder(AlgorithmEntity, 'a')
      .where('a.id IN (:...ids)', { ids })
      .orderBy('a.id')
      .setLock('pessimistic_write')
      .getMany();
  }

  /**
   * Records evaluations; returns the algorithm ids recorded. An algorithm the miner, or another hotkey of its
   * owner, already evaluated is skipped: one evaluation per owner and algorithm.
   */
  async insertEvaluations(
    manager: EntityManager,
    miner: MinerIdentity,
    assignmentId: string,
    rows: { algorithmId: number; score: number; inConsensus: boolean | null }[],
  ): Promise<number[]> {
    if (rows.length === 0) return [];
    return queryRows(
      manager,
      `INSERT INTO evaluations (algorithm_id, miner_hotkey, owner_coldkey, assignment_id, score, in_consensus)
       SELECT v.algorithm_id, $1, $2, $3, v.score, v.in_consensus
       FROM unnest($4::int[], $5::float8[], $6::boolean[]) AS v (algorithm_id, score, in_consensus)
       ON CONFLICT DO NOTHING
       RETURNING algorithm_id`,
      [miner.hotkey, miner.owner, assignmentId, rows.map((r) => r.algorithmId), rows.map((r) => r.score), rows.map((r) => r.inConsensus)],
      (row) => intColumn(row, 'algorithm_id'),
    );
  }

  /** Adds one to each algorithm's evaluation count and returns the new counts. */
  async bumpEvaluationCounts(manager: EntityManager, ids: number[]): Promise<Map<number, number>> {
    const rows = await queryRows(
      manager,
      `WITH bumped AS (UPDATE algorithms SET evaluations_count = evaluations_count + 1 WHERE id = ANY($1::int[]) RETURNING id, evaluations_count)
       SELECT id, evaluations_count FROM bumped`,
      [ids],
      (row) => [intColumn(row, 'id'), intColumn(row, 'evaluations_count')] as const,
    );
    return new Map(rows);
  }

  evaluationsOf(manager: EntityManager, algorithmId: number): Promise<EvaluationEntity[]> {
    return manager.find(EvaluationEntity, { where: { algorithmId }, order: { id: 'ASC' } });
  }

  /** `pending` → `scored` with its consensus score, only from `pending`. */
  async markScored(manager: EntityManager, id: number, score: number): Promise<boolean> {
    const rows = await queryRows(
      manager,
      `WITH scored AS (UPDATE algorithms SET status = 'scored', consensus_score = $2, decided_at = now() WHERE id = $1 AND status = 'pending' RETURNING id)
       SELECT id FROM scored`,
      [id, score],
      (row) => intColumn(row, 'id'),
    );
    return rows.length === 1;
  }

  async markRejected(manager: EntityManager, id: number): Promise<boolean> {
    const rows = await queryRows(
      manager,
      `WITH rejected AS (UPDATE algorithms SET status = 'rejected', decided_at = now() WHERE id = $1 AND status = 'pending' RETURNING id)
       SELECT id FROM rejected`,
      [id],
      (row) => intColumn(row, 'id'),
    );
    return rows.length === 1;
  }

  /** Sets `in_consensus` on the algorithm's undecided evaluations: true for `inConsensus` ids, false for the rest. */
  async settleEvaluations(manager: EntityManager, algorithmId: number, inConsensus: string[]): Promise<void> {
    await manager.query(`UPDATE evaluations SET in_consensus = (id = ANY($2::bigint[])) WHERE algorithm_id = $1 AND in_consensus IS NULL`, [
      algorithmId,
      inConsensus,
    ]);
  }

  /** Best consensus score among `ids` that are scored, or null when none is. */
  async bestScoreOf(manager: EntityManager, ids: number[]): Promise<number | null> {
    if (ids.length === 0) return null;
    return queryOneRow(manager, `SELECT max(consensus_score) AS best FROM algorithms WHERE id = ANY($1::int[]) AND status = 'scored'`, [ids], (row) =>
      nullableFloatColumn(row, 'best'),
    );
  }
}
