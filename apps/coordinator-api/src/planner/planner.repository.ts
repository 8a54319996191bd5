import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { SubmissionStatus, TaskState } from '@rcs/contracts';
import { queryRows, textColumn } from '@rcs/persistence';
import { SubmissionEntity } from '../submissions/entities/submission.entity';
import { IDEA_MODES } from '../tasks/competition-modes';
import { TaskEntity } from '../tasks/entities/task.entity';

/** A proposed idea no work item has planned yet. */
export interface AvailableIdea {
  submissionId: string;
  taskId: string;
  minerHotkey: string;
  proposedIdea: string;
}

/** What the planners read of tasks and submissions (they write only work items, through the work-items repository). */
@Injectable()
export class PlannerRepository {
  /** Live tasks, oldest first. */
  liveTasks(manager: EntityManager): Promise<TaskEntity[]> {
    return manager.find(TaskEntity, { where: { taskState: TaskState.Live }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /**
   * Non-blank ideas of non-rejected submissions on live centerless tasks that no work item keyed
   * `dedupeKeyPrefix || submission id` has planned (open, claimed, completed or cancelled by an admin).
   */
  unplannedIdeas(manager: EntityManager, dedupeKeyPrefix: string): Promise<AvailableIdea[]> {
    return queryRows(
      manager,
      `SELECT s.id AS submission_id, s.task_id, s.miner_hotkey, s.proposed_idea
       FROM submissions s JOIN tasks t ON t.id = s.task_id
       WHERE t.task_state = $1 AND t.competition_mode = ANY($2::text[])
         AND s.proposed_idea IS NOT NULL AND btrim(s.proposed_idea) <> '' AND s.status <> $4
         AND NOT EXISTS (SELECT 1 FROM work_items w WHERE w.task_id = s.task_id AND w.dedupe_key = $3 || s.id::text)
       ORDER BY s.created_at, s.id`,
      [TaskState.Live, IDEA_MODES, dedupeKeyPrefix, SubmissionStatus.Rejected],
      (row) => ({
        submissionId: textColumn(row, 'submission_id'),
        taskId: textColumn(row, 'task_id'),
        minerHotkey: textColumn(row, 'miner_hotkey'),
        proposedIdea: textColumn(row, 'proposed_idea'),
      }),
    );
  }

  /** The task's newest accepted submissions. */
  recentAccepted(manager: EntityManager, taskId: string, limit: number): Promise<SubmissionEntity[]> {
    return manager.find(SubmissionEntity, {
      where: { taskId, status: SubmissionStatus.Accepted },
      order: { createdAt: 'DESC', id: 'DESC' },
      take: limit,
    });
  }

  /** The task's newest submissions carrying an idea, rejected ones left out. */
  recentIdeas(manager: EntityManager, taskId: string, limit: number): Promise<SubmissionEntity[]> {
    return manager
      .createQueryBuilder(SubmissionEntity, 's')
      .where('s.task_id = :taskId AND s.proposed_idea IS NOT NULL AND s.status <> :rejected', { taskId, rejected: SubmissionStatus.Rejected })
      .orderBy('s.created_at', 'DESC')
      .addOrderBy('s.id', 'DESC')
      .take(limit)
      .getMany();
  }
}
