import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { updateReturning } from '../common/update-rows';
import { AssignmentEntity, type AssignmentKind } from './entities/assignment.entity';

export interface NewAssignment {
  minerHotkey: string;
  kind: AssignmentKind;
  taskType: string;
  algorithmIds: number[];
  seedIds: number[];
  windowNumber: number | null;
  evolveBudget: number;
  timeoutSeconds: number;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Batches and leases. The partial unique indexes decide "one active per miner" and "one lease per window". */
@Injectable()
export class AssignmentsRepository {
  /**
   * Inserts an active assignment unless the miner holds one or (leases) already had one in the window:
   * the unique indexes decide under any concurrency. Null on either conflict.
   */
  async insertActive(manager: EntityManager, a: NewAssignment): Promise<AssignmentEntity | null> {
    const rows = (await manager.query(
      `INSERT INTO assignments (miner_hotkey, kind, status, task_type, algorithm_ids, seed_ids, window_number, evolve_budget, timeout_at)
       VALUES ($1, $2, 'active', $3, $4::int[], $5::int[], $6, $7, now() + make_interval(secs => $8))
       ON CONFLICT DO NOTHING
       RETURNING id`,
      [a.minerHotkey, a.kind, a.taskType, a.algorithmIds, a.seedIds, a.windowNumber, a.evolveBudget, a.timeoutSeconds],
    )) as { id: string }[];
    return rows.length === 0 ? null : manager.findOneByOrFail(AssignmentEntity, { id: rows[0].id });
  }

  /** Expires active assignments past `timeout_at` (all, or one miner's); returns how many. */
  async expireStale(manager: EntityManager, minerHotkey?: string): Promise<number> {
    const rows = await updateReturning<{ id: string }>(manager,
      `UPDATE assignments SET status = 'expired', updated_at = now()
       WHERE status = 'active' AND timeout_at <= now() ${minerHotkey === undefined ? '' : 'AND miner_hotkey = $1'}
       RETURNING id`,
      minerHotkey === undefined ? [] : [minerHotkey],
    );
    return rows.length;
  }

  /** The miner's active, unexpired assignment. */
  findActive(manager: EntityManager, minerHotkey: string): Promise<AssignmentEntity | null> {
    return manager
      .createQueryBuilder(AssignmentEntity, 'a')
      .where(`a.miner_hotkey = :minerHotkey AND a.status = 'active' AND a.timeout_at > now()`, { minerHotkey })
      .getOne();
  }

  async hasLeaseInWindow(manager: EntityManager, minerHotkey: string, windowNumber: number): Promise<boolean> {
    const rows = (await manager.query(`SELECT 1 FROM assignments WHERE miner_hotkey = $1 AND kind = 'lease' AND window_number = $2`, [
      minerHotkey,
      windowNumber,
    ])) as unknown[];
    return rows.length > 0;
  }

  /** The assignment, locked for the rest of the transaction; null for an unknown or malformed id. */
  lockById(manager: EntityManager, id: string): Promise<AssignmentEntity | null> {
    if (!UUID.test(id)) return Promise.resolve(null);
    return manager.findOne(AssignmentEntity, { where: { id }, lock: { mode: 'pessimistic_write' } });
  }

  /** Whether the locked assignment is past its timeout by the database clock. */
  async isPastTimeout(manager: EntityManager, id: string): Promise<boolean> {
    const rows = (await manager.query(`SELECT timeout_at <= now() AS past FROM assignments WHERE id = $1`, [id])) as { past: boolean }[];
    return rows[0]?.past ?? true;
  }

  /** `active` → `submitted` or `expired`, only from `active`. */
  async close(manager: EntityManager, id: string, status: 'submitted' | 'expired'): Promise<boolean> {
    const rows = await updateReturning<unknown>(manager,
      `UPDATE assignments SET status = $2, updated_at = now() WHERE id = $1 AND status = 'active' RETURNING id`,
      [id, status],
    );
    return rows.length === 1;
  }
}
