import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { WorkItemQueryDto, WorkItemSource, WorkItemStatus } from '@rcs/contracts';
import { queryRows, textColumn } from '@rcs/persistence';
import { WorkItemEntity } from './entities/work-item.entity';

/** A work item a planner proposes; it is stored `open`. */
export interface NewWorkItem {
  taskId: string;
  title: string;
  description: string;
  priority: number;
  source: WorkItemSource;
  /** What the item is about; a task never has two open or claimed items with one key. */
  dedupeKey: string;
  ideaSubmissionId: string | null;
  parentSubmissionId: string | null;
}

/** The work_items table, always through the caller's manager; claims reopen their items in their own statements. */
@Injectable()
export class WorkItemsRepository {
  /**
   * Inserts the items as `open`, skipping any whose (task, dedupe key) is already open or claimed
   * (the partial unique index `work_items_live_dedupe_unique`, under any concurrency). Returns how
   * many were inserted.
   */
  async insertOpen(manager: EntityManager, items: NewWorkItem[]): Promise<number> {
    if (items.length === 0) return 0;
    const inserted = await queryRows(
      manager,
      // The ON CONFLICT predicate repeats the partial index's own, literally: that is how Postgres infers the index.
      `INSERT INTO work_items (task_id, title, description, priority, status, source, dedupe_key, idea_submission_id, parent_submission_id)
       SELECT u.task_id, u.title, u.description, u.priority, $9, u.source, u.dedupe_key, u.idea_submission_id, u.parent_submission_id
       FROM unnest($1::uuid[], $2::text[], $3::text[], $4::int[], $5::text[], $6::text[], $7::uuid[], $8::uuid[])
         AS u(task_id, title, description, priority, source, dedupe_key, idea_submission_id, parent_submission_id)
       ON CONFLICT (task_id, dedupe_key) WHERE status IN ('open', 'claimed') DO NOTHING
       RETURNING id`,
      [
        items.map((item) => item.taskId),
        items.map((item) => item.title),
        items.map((item) => item.description),
        items.map((item) => item.priority),
        items.map((item) => item.source),
        items.map((item) => item.dedupeKey),
        items.map((item) => item.ideaSubmissionId),
        items.map((item) => item.parentSubmissionId),
        WorkItemStatus.Open,
      ],
      (row) => textColumn(row, 'id'),
    );
    return inserted.length;
  }

  find(manager: EntityManager, workItemId: string): Promise<WorkItemEntity | null> {
    return manager.findOne(WorkItemEntity, { where: { id: workItemId } });
  }

  /** Newest first, filtered, paged; the caller has checked that a task id is a uuid. */
  list(manager: EntityManager, query: WorkItemQueryDto): Promise<WorkItemEntity[]> {
    return manager.find(WorkItemEntity, {
      where: {
        ...(query.task_id !== undefined && { taskId: query.task_id }),
        // A free string in the spec: a status no item has matches nothing.
        ...(query.status !== undefined && { status: query.status as WorkItemStatus }),
      },
      order: { createdAt: 'DESC', id: 'DESC' },
      take: query.limit,
      skip: query.offset,
    });
  }

  /** A task's open items, highest priority first (what a planner must not propose again). */
  listOpen(manager: EntityManager, taskId: string, limit: number): Promise<WorkItemEntity[]> {
    return manager.find(WorkItemEntity, {
      where: { taskId, status: WorkItemStatus.Open },
      order: { priority: 'DESC', createdAt: 'DESC' },
      take: limit,
    });
  }

  /** `open` → `claimed` by the claim, in one conditional UPDATE; the claimed item, or null when it was no longer open. */
  async claimOpen(manager: EntityManager, workItemId: string, claimId: string): Promise<WorkItemEntity | null> {
    const claimed = await queryRows(
      manager,
      `WITH claimed AS (
         UPDATE work_items SET status = $3, claim_id = $2, updated_at = now() WHERE id = $1 AND status = $4 RETURNING id
       )
       SELECT id FROM claimed`,
      [workItemId, claimId, WorkItemStatus.Claimed, WorkItemStatus.Open],
      (row) => textColumn(row, 'id'),
    );
    return claimed.length === 0 ? null : manager.findOneByOrFail(WorkItemEntity, { id: workItemId });
  }
}
