import {
  DashboardBestDto,
  DashboardDto,
  DashboardSubmissionCountsDto,
  DashboardTaskCountsDto,
  DashboardTaskDto,
  TaskState,
} from '@rcs/contracts';
import type { SubmissionDecided } from '../events/domain-events';
import { toPublicDecision } from '../events/public-events';
import { BacklogRow, DashboardTaskRow, SubmissionCountRow, TaskCountRow, TaskStateCountRow } from './dashboard.repository';

/** Everything the dashboard read, in one consistent snapshot. */
export interface DashboardRead {
  now: Date;
  taskLimit: number;
  taskStates: TaskStateCountRow[];
  tasks: DashboardTaskRow[];
  submissionCounts: SubmissionCountRow[];
  activeClaims: TaskCountRow[];
  openWorkItems: TaskCountRow[];
  backlog: BacklogRow;
  decisions: SubmissionDecided[];
}

export function toDashboardDto(read: DashboardRead): DashboardDto {
  const taskCounts = toTaskCounts(read.taskStates);
  const submissions = submissionCountsByTask(read.submissionCounts);
  const activeClaims = countsByTask(read.activeClaims);
  const openWorkItems = countsByTask(read.openWorkItems);
  return {
    generated_at: read.now.toISOString(),
    task_counts: taskCounts,
    tasks: read.tasks.map((task) => ({
      ...toTaskSummary(task),
      submissions: submissions.get(task.id) ?? emptySubmissionCounts(),
      active_claims: activeClaims.get(task.id) ?? 0,
      open_work_items: openWorkItems.get(task.id) ?? 0,
      exposure: task.exposure,
    })),
    tasks_truncated: taskCounts.total > read.taskLimit,
    validator_backlog: { ...read.backlog },
    recent_decisions: read.decisions.map(toPublicDecision),
  };
}

function toTaskCounts(rows: TaskStateCountRow[]): DashboardTaskCountsDto {
  const counts: DashboardTaskCountsDto = { live: 0, paused: 0, closed: 0, total: 0 };
  for (const row of rows) {
    counts[stateKey(row.task_state)] += row.count;
    counts.total += row.count;
  }
  return counts;
}

function stateKey(state: TaskState): 'live' | 'paused' | 'closed' {
  switch (state) {
    case TaskState.Live:
      return 'live';
    case TaskState.Paused:
      return 'paused';
    case TaskState.Closed:
      return 'closed';
  }
}

function toTaskSummary(task: DashboardTaskRow): Omit<DashboardTaskDto, 'submissions' | 'active_claims' | 'open_work_items' | 'exposure'> {
  return {
    id: task.id,
    slug: task.slug,
    title: task.title,
    task_state: task.task_state,
    competition_mode: task.competition_mode,
    metric_name: task.metric_name,
    metric_direction: task.metric_direction,
    created_at: task.created_at.toISOString(),
    best: toBest(task),
  };
}

function toBest(task: DashboardTaskRow): DashboardBestDto | null {
  if (task.best_submission_id === null || task.best_miner_hotkey === null || task.best_metric_value === null || task.best_updated_at === null) {
    return null;
  }
  return {
    submission_id: task.best_submission_id,
    miner_hotkey: task.best_miner_hotkey,
    metric_value: task.best_metric_value,
    updated_at: task.best_updated_at.toISOString(),
  };
}

function emptySubmissionCounts(): DashboardSubmissionCountsDto {
  return { pending_verification: 0, accepted: 0, rejected: 0, error: 0, total: 0 };
}

function submissionCountsByTask(rows: SubmissionCountRow[]): Map<string, DashboardSubmissionCountsDto> {
  const byTask = new Map<string, DashboardSubmissionCountsDto>();
  for (const row of rows) {
    const counts = byTask.get(row.task_id) ?? emptySubmissionCounts();
    // The status keys of the counts are the SubmissionStatus values themselves.
    counts[row.status] += row.count;
    counts.total += row.count;
    byTask.set(row.task_id, counts);
  }
  return byTask;
}

function countsByTask(rows: TaskCountRow[]): Map<string, number> {
  return new Map(rows.map((row) => [row.task_id, row.count]));
}

