import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CompetitionMode, TaskState, WorkItemSource } from '@rcs/contracts';
import { inTransaction } from '@rcs/persistence';
import { TaskEntity } from '../tasks/entities/task.entity';
import { insertWorkItems, NewWorkItem } from '../work-items/work-items.module';

export const IMPROVE_BEST_KEY = 'improve-best';
export const IMPROVE_BEST_PRIORITY = 10;
export const IMPLEMENT_IDEA_PRIORITY = 20;
const IMPLEMENT_IDEA_KEY_PREFIX = 'implement-idea:';

/** Dedupe key of the item that implements the idea of one submission. */
export function implementIdeaKey(submissionId: string): string {
  return `${IMPLEMENT_IDEA_KEY_PREFIX}${submissionId}`;
}

interface AvailableIdea {
  submission_id: string;
  task_id: string;
  miner_hotkey: string;
  proposed_idea: string;
}

/**
 * `POST /planner/run` (DECISIONS.md §4): per live task one open "improve the current best" item and,
 * on centerless tasks, one "implement the idea of submission X" item per available idea (proposed,
 * not rejected, never planned before). Re-running creates nothing new.
 */
@Injectable()
export class DeterministicPlanner {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** How many work items this run created. */
  plan(): Promise<number> {
    return inTransaction(this.dataSource, async (manager) => {
      const tasks = await manager.find(TaskEntity, { where: { taskState: TaskState.Live }, order: { createdAt: 'ASC', id: 'ASC' } });
      const byId = new Map(tasks.map((task) => [task.id, task]));
      // An idea planned once (open, claimed, completed or cancelled by an admin) is not planned again.
      const ideas = (await manager.query(
        `SELECT s.id AS submission_id, s.task_id, s.miner_hotkey, s.proposed_idea
         FROM submissions s JOIN tasks t ON t.id = s.task_id
         WHERE t.task_state = $1 AND t.competition_mode = $2
           AND s.proposed_idea IS NOT NULL AND btrim(s.proposed_idea) <> '' AND s.status <> 'rejected'
           AND NOT EXISTS (SELECT 1 FROM work_items w WHERE w.task_id = s.task_id AND w.dedupe_key = $3 || s.id::text)
         ORDER BY s.created_at, s.id`,
        [TaskState.Live, CompetitionMode.Centerless, IMPLEMENT_IDEA_KEY_PREFIX],
      )) as AvailableIdea[];
      return insertWorkItems(manager, [
        ...tasks.map(improveBestItem),
        ...ideas.flatMap((idea) => {
          const task = byId.get(idea.task_id);
          return task ? [implementIdeaItem(task, idea)] : [];
        }),
      ]);
    });
  }
}

// The best result arrives with the validation flow; until then the item names the task's metric only.
function improveBestItem(task: TaskEntity): NewWorkItem {
  return {
    taskId: task.id,
    title: `Improve the current best of ${task.slug}`,
    description:
      `Beat the current best ${task.metricName} (${task.metricDirection}) of task ${task.slug} (${task.title}). ` +
      `Read GET /api/v1/tasks/${task.id}/onboard.md for the benchmark and the allowed edit surface, and ` +
      `GET /api/v1/tasks/${task.id}/best for the result to beat.`,
    priority: IMPROVE_BEST_PRIORITY,
    source: WorkItemSource.Planner,
    dedupeKey: IMPROVE_BEST_KEY,
    ideaSubmissionId: null,
    parentSubmissionId: null,
  };
}

function implementIdeaItem(task: TaskEntity, idea: AvailableIdea): NewWorkItem {
  return {
    taskId: task.id,
    title: `Implement the idea of submission ${idea.submission_id}`,
    description:
      `Implement this idea, proposed by ${idea.miner_hotkey} in submission ${idea.submission_id} of task ${task.slug}, ` +
      `and set implemented_submission_id to ${idea.submission_id} when you submit:\n\n${idea.proposed_idea}`,
    priority: IMPLEMENT_IDEA_PRIORITY,
    source: WorkItemSource.Planner,
    dedupeKey: implementIdeaKey(idea.submission_id),
    ideaSubmissionId: idea.submission_id,
    parentSubmissionId: null,
  };
}
