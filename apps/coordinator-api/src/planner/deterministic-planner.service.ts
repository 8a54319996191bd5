import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { WorkItemSource } from '@rcs/contracts';
import { inTransaction } from '@rcs/persistence';
import { TaskEntity } from '../tasks/entities/task.entity';
import { NewWorkItem, WorkItemsRepository } from '../work-items/work-items.module';
import { AvailableIdea, PlannerRepository } from './planner.repository';

export const IMPROVE_BEST_KEY = 'improve-best';
export const IMPROVE_BEST_PRIORITY = 10;
export const IMPLEMENT_IDEA_PRIORITY = 20;
const IMPLEMENT_IDEA_KEY_PREFIX = 'implement-idea:';

/** Dedupe key of the item that implements the idea of one submission. */
export function implementIdeaKey(submissionId: string): string {
  return `${IMPLEMENT_IDEA_KEY_PREFIX}${submissionId}`;
}

/**
 * `POST /planner/run` (DECISIONS.md §4): per live task one open "improve the current best" item and,
 * on centerless tasks, one "implement the idea of submission X" item per available idea (proposed,
 * not rejected, never planned before). Re-running creates nothing new.
 */
@Injectable()
export class DeterministicPlanner {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly planner: PlannerRepository,
    private readonly workItems: WorkItemsRepository,
  ) {}

  /** How many work items this run created. */
  plan(): Promise<number> {
    return inTransaction(this.dataSource, async (manager) => {
      const tasks = await this.planner.liveTasks(manager);
      const byId = new Map(tasks.map((task) => [task.id, task]));
      const ideas = await this.planner.unplannedIdeas(manager, IMPLEMENT_IDEA_KEY_PREFIX);
      return this.workItems.insertOpen(manager, [
        ...tasks.map(improveBestItem),
        ...ideas.flatMap((idea) => {
          const task = byId.get(idea.taskId);
          return task ? [implementIdeaItem(task, idea)] : [];
        }),
      ]);
    });
  }
}

// The item points at the best route rather than quoting the best, which can change while the item waits.
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
    title: `Implement the idea of submission ${idea.submissionId}`,
    description:
      `Implement this idea, proposed by ${idea.minerHotkey} in submission ${idea.submissionId} of task ${task.slug}, ` +
      `and set implemented_submission_id to ${idea.submissionId} when you submit:\n\n${idea.proposedIdea}`,
    priority: IMPLEMENT_IDEA_PRIORITY,
    source: WorkItemSource.Planner,
    dedupeKey: implementIdeaKey(idea.submissionId),
    ideaSubmissionId: idea.submissionId,
    parentSubmissionId: null,
  };
}
