import { EntityManager } from 'typeorm';
import { WorkItemSource, WorkItemStatus } from '@rcs/contracts';
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

/**
 * Inserts the items as `open`, skipping any whose (task, dedupe key) is already open or claimed
 * (the partial unique index `work_items_live_dedupe_unique`, under any concurrency). Returns how
 * many were inserted.
 */
export async function insertWorkItems(manager: EntityManager, items: NewWorkItem[]): Promise<number> {
  if (items.length === 0) return 0;
  const rows = (await manager.query(
    `INSERT INTO work_items (task_id, title, description, priority, status, source, dedupe_key, idea_submission_id, parent_submission_id)
     SELECT u.task_id, u.title, u.description, u.priority, 'open', u.source, u.dedupe_key, u.idea_submission_id, u.parent_submission_id
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
    ],
  )) as { id: string }[];
  return rows.length;
}

/** The work item the claim held becomes `completed` by the submission (in the submission's transaction). */
export async function completeClaimedWorkItem(manager: EntityManager, claimId: string, submissionId: string): Promise<void> {
  await manager
    .createQueryBuilder()
    .update(WorkItemEntity)
    .set({ status: WorkItemStatus.Completed, completedSubmissionId: submissionId })
    .where('claim_id = :claimId AND status = :claimed', { claimId, claimed: WorkItemStatus.Claimed })
    .execute();
}
