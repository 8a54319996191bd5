import { Injectable } from '@nestjs/common';
import { booleanColumn, intColumn, nullableIntColumn, queryOneRow, queryRows, textColumn, timestampColumn } from '@rcs/persistence';
import { isUuid } from '@rcs/contracts';
import { EntityManager } from 'typeorm';
import { entityFromRow } from '../common/entity-rows';
import { AssignmentEntity, type AssignmentKind } from './entities/assignment.entity';

export interface NewAssignment {
  minerHotkey: string;
  ownerColdkey: string;
  kind: AssignmentKind;
  taskType: string;
  algorithmIds: number[];
  seedIds: number[];
  windowNumber: number;
  evolveBudget: number;
  timeoutSeconds: number;
}

export interface AssignmentBlockers {
  leaseInWindow: boolean;
  active: { id: string; timeoutAt: Date } | null;
}

/** Batches and leases. The partial unique indexes decide "one active per miner" and "one lease per window". */
@Injectable()
export class AssignmentsRepository {
  /**
   * Inserts an active assignment unless the miner holds one or (leases) already had one in the window:
   * the unique indexes decide under any concurrency. Null on either conflict.
   */
  async insertActive(manager: EntityManager, a: NewAssignment): Promise<AssignmentEntity | null> {
    const rows = await queryRows(
      manager,
      `INSERT INTO assignments (miner_hotkey, owner_coldkey, kind, status, task_type, algorithm_ids, seed_ids, window_number, evolve_budget, timeout_at)
       VALUES ($1, $2, $3, 'active', $4, $5::int[], $6::int[], $7, $8, now() + make_interval(secs => $9))
       ON CONFLICT DO NOTHING
       RETURNING *`,
      [a.minerHotkey, a.ownerColdkey, a.kind, a.taskType, a.algorithmIds, a.seedIds, a.windowNumber, a.evolveBudget, a.timeoutSeconds],
      (row) => entityFromRow(manager, AssignmentEntity, row),
    );
    return rows[0] ?? null;
  }

  /**
   * In one statement: refreshes the miner's `last_seen_at` (creating the miner), expires its assignments past
   * their timeout, and tells what would block a new one: an active assignment, or a lease already in `window`.
   */
  async prepareMiner(manager: EntityManager, minerHotkey: string, window: number | null): Promise<AssignmentBlockers> {
    const rows = await queryRows(
      manager,
      `WITH touched AS (
         INSERT INTO miners (hotkey) VALUES ($1) ON CONFLICT (hotkey) DO UPDATE SET last_seen_at = now() RETURNING hotkey
       ), expired AS (
         UPDATE assignments SET status = 'expired', updated_at = now()
         WHERE miner_hotkey = $1 AND status = 'active' AND timeout_at <= now() RETURNING id
       )
       SELECT id, kind, status, window_number, timeout_at
       FROM assignments
       -- touched and expired run whatever this reads; it sees the rows as they were, hence timeout_at > now().
       WHERE miner_hotkey = $1 AND ((status = 'active' AND timeout_at > now()) OR (kind = 'lease' AND window_number = $2))`,
      [minerHotkey, window],
      (row) => ({
        id: textColumn(row, 'id'),
        kind: textColumn(row, 'kind'),
        status: textColumn(row, 'status'),
        window_number: nullableIntColumn(row, 'window_number'),
        timeout_at: timestampColumn(row, 'timeout_at'),
      }),
    );
    const active = rows.find((row) => row.status === 'active') ?? null;
    return {
      leaseInWindow: window !== null && rows.some((row) => row.kind === 'lease' && row.window_number === window),
      active: active === null ? null : { id: active.id, timeoutAt: active.timeout_at },
    };
  }

  /** Serialises, until the transaction ends, every assignment issued to hotkeys of `owner`. */
  async lockOwner(manager: EntityManager, owner: string): Promise<void> {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [`pool:owner:${owner}`]);
  }

  /** Batches and leases issued to hotkeys of `owner` in `window`, whatever became of them. */
  async countInWindow(manager: EntityManager, owner: string, window: number): Promise<number> {
    return queryOneRow(manager, `SELECT count(*)::int AS n FROM assignments WHERE owner_coldkey = $1 AND window_number = $2`, [owner, window], (row) =>
      intColumn(row, 'n'),
    );
  }

  /** Expires active assignments past `timeout_at` (all, or one miner's); returns how many. */
  async expireStale(manager: EntityManager, minerHotkey?: string): Promise<number> {
    const rows = await queryRows(
      manager,
      `WITH expired AS (
         UPDATE assignments SET status = 'expired', updated_at = now()
         WHERE status = 'active' AND timeout_at <= now() ${minerHotkey === undefined ? '' : 'AND miner_hotkey = $1'}
         RETURNING id
       ) SELECT id FROM expired`,
      minerHotkey === undefined ? [] : [minerHotkey],
      (row) => textColumn(row, 'id'),
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
    const rows = await queryRows(manager, `SELECT 1 AS found FROM assignments WHERE miner_hotkey = $1 AND kind = 'lease' AND window_number = $2`, [minerHotkey, windowNumber], (row) =>
      intColumn(row, 'found'),
    );
    return rows.length > 0;
  }

  /** The assignment, locked for the rest of the transaction, and whether it is past its timeout by the database clock. */
  async lockById(manager: EntityManager, id: string): Promise<{ assignment: AssignmentEntity; pastTimeout: boolean } | null> {
    if (!isUuid(id)) return null;
    const [locked] = await queryRows(manager, `SELECT *, timeout_at <= now() AS past FROM assignments WHERE id = $1 FOR UPDATE`, [id], (row) => ({
      assignment: entityFromRow(manager, AssignmentEntity, row),
      pastTimeout: booleanColumn(row, 'past'),
    }));
    return locked ?? null;
  }

  /** `active` → `submitted` or `expired`, only from `active`. */
  async close(manager: EntityManager, id: string, status: 'submitted' | 'expired'): Promise<boolean> {
    const rows = await queryRows(
      manager,
      `WITH closed AS (UPDATE assignments SET status = $2, updated_at = now() WHERE id = $1 AND status = 'active' RETURNING id) SELECT id FROM closed`,
      [id, status],
      (row) => textColumn(row, 'id'),
    );
    return rows.length === 1;
  }
}
