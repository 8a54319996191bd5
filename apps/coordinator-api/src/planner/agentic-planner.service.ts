import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { WorkItemSource } from '@rcs/contracts';
import { inTransaction } from '@rcs/persistence';
import type { AgenticPlanOutcome } from '../jobs/job-results';
import { SubmissionEntity } from '../submissions/entities/submission.entity';
import { pick } from '../common/pick';
import { TaskEntity } from '../tasks/entities/task.entity';
import { toTaskDto } from '../tasks/tasks.module';
import { WorkItemEntity } from '../work-items/entities/work-item.entity';
import { NewWorkItem, WorkItemsRepository } from '../work-items/work-items.module';
import { AGENTIC_ANSWER_LIMITS, agenticDedupeKey, normaliseTitle, parseWorkItemPlan, ProposedWorkItem } from './agentic-answer';
import { ChatMessage, PlannerLlmClient } from './planner-llm.client';
import { PlannerLlmError } from './planner-llm.error';
import { PlannerRepository } from './planner.repository';

/** How much history one prompt carries per task, and how long each text may be in it. */
const RECENT_ACCEPTED = 10;
const RECENT_IDEAS = 20;
const OPEN_ITEMS = 50;
const EXCERPT_CHARACTERS = 1000;

const SYSTEM_PROMPT = [
  'You plan work for miners in an open research competition. Each task is a benchmark on a public repository;',
  'miners claim work items, change the allowed files, and submit; validators replay the benchmark.',
  'Given one task, its recent accepted submissions, its available ideas and its open work items, propose new,',
  'concrete, independent work items likely to improve the task metric. Do not repeat an open work item.',
  'Answer with one JSON object and nothing else:',
  '{"work_items": [{"title": string, "description": string, "priority": integer}]}',
  `with at most ${AGENTIC_ANSWER_LIMITS.maxItems} items; title ${AGENTIC_ANSWER_LIMITS.title.min}..${AGENTIC_ANSWER_LIMITS.title.max} characters,`,
  `description ${AGENTIC_ANSWER_LIMITS.description.min}..${AGENTIC_ANSWER_LIMITS.description.max} characters,`,
  `priority ${AGENTIC_ANSWER_LIMITS.priority.min}..${AGENTIC_ANSWER_LIMITS.priority.max} (higher runs first). No other properties.`,
].join(' ');

/**
 * `POST /planner/run-agentic` (DECISIONS.md §4): per live task an OpenAI-compatible model is shown
 * the task's public fields (never validator-private ones), recent accepted summaries, available
 * ideas and open items, and proposes work items. Every answer is validated before anything is
 * stored; one failure stores nothing.
 */
@Injectable()
export class AgenticPlanner {
  private readonly logger = new Logger(AgenticPlanner.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly llm: PlannerLlmClient,
    private readonly planner: PlannerRepository,
    private readonly workItems: WorkItemsRepository,
  ) {}

  async plan(): Promise<AgenticPlanOutcome> {
    const manager = this.dataSource.manager;
    const tasks = await this.planner.liveTasks(manager);
    const proposals: NewWorkItem[] = [];
    for (const task of tasks) {
      try {
        const content = await this.llm.complete(await this.promptFor(task));
        proposals.push(...uniqueByTitle(parseWorkItemPlan(content)).map((item) => toNewWorkItem(task, item)));
      } catch (error) {
        if (!(error instanceof PlannerLlmError)) throw error;
        const reason = `task ${task.slug}: ${error.reason}`;
        this.logger.warn(`Agentic planner run stored nothing: ${reason}`);
        return { outcome: 'llm_failed', reason };
      }
    }
    const created = await inTransaction(this.dataSource, (tx) => this.workItems.insertOpen(tx, proposals));
    return { outcome: 'created', created };
  }

  private async promptFor(task: TaskEntity): Promise<ChatMessage[]> {
    const manager = this.dataSource.manager;
    const [accepted, ideas, openItems] = await Promise.all([
      this.planner.recentAccepted(manager, task.id, RECENT_ACCEPTED),
      this.planner.recentIdeas(manager, task.id, RECENT_IDEAS),
      this.workItems.listOpen(manager, task.id, OPEN_ITEMS),
    ]);
    return promptOf(task, accepted, ideas, openItems);
  }
}

function promptOf(task: TaskEntity, accepted: SubmissionEntity[], ideas: SubmissionEntity[], openItems: WorkItemEntity[]): ChatMessage[] {
  const context = {
    task: publicTaskFields(task),
    recent_accepted_submissions: accepted.map((s) => ({ submission_id: s.id, summary: excerpt(s.summary) })),
    available_ideas: ideas.map((s) => ({ submission_id: s.id, idea: excerpt(s.proposedIdea ?? '') })),
    open_work_items: openItems.map((item) => item.title),
  };
  return [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: JSON.stringify(context) },
  ];
}

/** What the planner is told of a task, in this order (`brief` shortened). */
const PLANNER_TASK_FIELDS = [
  ...['id', 'slug', 'title', 'brief', 'repository', 'base_ref', 'benchmark_command', 'allowed_patch_paths', 'max_patch_bytes'] as const,
  ...['metric_name', 'metric_direction', 'ranking_mode', 'secondary_metric_name', 'secondary_metric_direction'] as const,
  ...['competition_mode', 'time_budget_seconds', 'model_family', 'reference_model_id'] as const,
];

/** The task as miners see it; validator-private fields (`validator_benchmark_env`) never leave the service. */
function publicTaskFields(task: TaskEntity): Record<string, unknown> {
  const brief = task.brief === null ? null : excerpt(task.brief, 4 * EXCERPT_CHARACTERS);
  return { ...pick(toTaskDto(task), PLANNER_TASK_FIELDS), brief };
}

function excerpt(text: string, max = EXCERPT_CHARACTERS): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

function uniqueByTitle(items: ProposedWorkItem[]): ProposedWorkItem[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = normaliseTitle(item.title);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function toNewWorkItem(task: TaskEntity, item: ProposedWorkItem): NewWorkItem {
  return {
    taskId: task.id,
    title: item.title,
    description: item.description,
    priority: item.priority,
    source: WorkItemSource.AgenticPlanner,
    dedupeKey: agenticDedupeKey(item.title),
    ideaSubmissionId: null,
    parentSubmissionId: null,
  };
}
