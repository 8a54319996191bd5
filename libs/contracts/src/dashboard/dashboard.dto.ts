import { ApiProperty } from '@nestjs/swagger';
import { CompetitionMode, MetricDirection, SubmissionStatus, TaskState } from '../enums';

/** The dashboard lists at most this many tasks, newest first; `tasks_truncated` says when more exist. */
export const DASHBOARD_TASK_LIMIT = 200;

/** How many of the latest decisions the dashboard shows. */
export const DASHBOARD_RECENT_DECISIONS = 20;

/** How many tasks are in each state, over every task (not only the listed ones). */
export class DashboardTaskCountsDto {
  @ApiProperty({ description: 'Tasks in state `live`.', type: 'integer' })
  live!: number;

  @ApiProperty({ description: 'Tasks in state `paused`.', type: 'integer' })
  paused!: number;

  @ApiProperty({ description: 'Tasks in state `closed`.', type: 'integer' })
  closed!: number;

  @ApiProperty({ description: 'All tasks.', type: 'integer' })
  total!: number;
}

/** A task's current best result, in short. */
export class DashboardBestDto {
  @ApiProperty({ type: String, description: 'Submission holding the best result.' })
  submission_id!: string;

  @ApiProperty({ type: String, description: 'Hotkey of the miner holding the best.' })
  miner_hotkey!: string;

  @ApiProperty({ description: 'Verified value of the task metric.', type: Number })
  metric_value!: number;

  @ApiProperty({ description: 'When this result became the best.', type: String, format: 'date-time' })
  updated_at!: string;
}

/** Submissions of a task per status; every status is present, zeros included. */
export class DashboardSubmissionCountsDto {
  @ApiProperty({ description: 'Submissions waiting for a decision.', type: 'integer' })
  pending_verification!: number;

  @ApiProperty({ description: 'Accepted submissions.', type: 'integer' })
  accepted!: number;

  @ApiProperty({ description: 'Rejected submissions.', type: 'integer' })
  rejected!: number;

  @ApiProperty({ description: 'Submissions decided as `error`.', type: 'integer' })
  error!: number;

  @ApiProperty({ description: 'All submissions of the task.', type: 'integer' })
  total!: number;
}

/** One task at a glance; validator-private fields are never part of it. */
export class DashboardTaskDto {
  @ApiProperty({ type: String, description: 'Task id.' })
  id!: string;

  @ApiProperty({ type: String, description: 'Unique task key.' })
  slug!: string;

  @ApiProperty({ type: String, description: 'Human title.' })
  title!: string;

  @ApiProperty({ description: 'Task state.', enum: TaskState, enumName: 'TaskState' })
  task_state!: TaskState;

  @ApiProperty({ description: 'Competition rules of the task.', enum: CompetitionMode, enumName: 'CompetitionMode' })
  competition_mode!: CompetitionMode;

  @ApiProperty({ type: String, description: 'Primary metric key.' })
  metric_name!: string;

  @ApiProperty({ description: 'Direction of the primary metric.', enum: MetricDirection, enumName: 'MetricDirection' })
  metric_direction!: MetricDirection;

  @ApiProperty({ description: 'Creation time; tasks are listed newest first.', type: String, format: 'date-time' })
  created_at!: string;

  @ApiProperty({ description: 'The current best result; null before the first accepted result.', type: () => DashboardBestDto, nullable: true })
  best!: DashboardBestDto | null;

  @ApiProperty({ description: 'Submissions per status.', type: () => DashboardSubmissionCountsDto })
  submissions!: DashboardSubmissionCountsDto;

  @ApiProperty({ description: 'Claims that are `active` and not past their expiry (a claim past its TTL never counts).', type: 'integer' })
  active_claims!: number;

  @ApiProperty({ description: 'Work items in status `open`.', type: 'integer' })
  open_work_items!: number;
}

/** The validators' queue of work. */
export class DashboardValidatorBacklogDto {
  @ApiProperty({ description: 'Validator jobs waiting for a validator.', type: 'integer' })
  pending_jobs!: number;

  @ApiProperty({ description: 'Validator jobs leased to a validator, expired leases included.', type: 'integer' })
  leased_jobs!: number;

  @ApiProperty({ description: 'Leased jobs whose lease has run out and that have not yet returned to the pool.', type: 'integer' })
  expired_leases!: number;

  @ApiProperty({ description: 'Whole seconds since the oldest pending job was created (a returned lease keeps its age); null when none is pending.', type: 'integer', nullable: true })
  oldest_pending_age_seconds!: number | null;
}

/** One decided submission. */
export class DashboardDecisionDto {
  @ApiProperty({ type: String, description: 'Task id.' })
  task_id!: string;

  @ApiProperty({ type: String, description: 'Task slug.' })
  task_slug!: string;

  @ApiProperty({ type: String, description: 'Decided submission.' })
  submission_id!: string;

  @ApiProperty({ type: String, description: 'Hotkey of the submitting miner.' })
  miner_hotkey!: string;

  @ApiProperty({ description: 'The decision: `accepted`, `rejected` or `error`.', enum: SubmissionStatus, enumName: 'SubmissionStatus' })
  status!: SubmissionStatus;

  @ApiProperty({ type: String, description: 'Task metric name.' })
  metric_name!: string;

  @ApiProperty({ description: 'Verified value of the task metric; null when the decision carried none.', type: Number, nullable: true })
  verified_metric_value!: number | null;

  @ApiProperty({ description: 'When the submission was decided.', type: String, format: 'date-time' })
  decided_at!: string;
}

/** `GET /api/v1/dashboard`: what operators and miners want at a glance, from one consistent read. */
export class DashboardDto {
  @ApiProperty({ description: 'The moment every number was read at.', type: String, format: 'date-time' })
  generated_at!: string;

  @ApiProperty({ description: 'Tasks per state, over every task.', type: () => DashboardTaskCountsDto })
  task_counts!: DashboardTaskCountsDto;

  @ApiProperty({ description: `Tasks, newest first (created_at, then id), at most ${DASHBOARD_TASK_LIMIT}.`, type: () => [DashboardTaskDto] })
  tasks!: DashboardTaskDto[];

  @ApiProperty({ description: `True when more than ${DASHBOARD_TASK_LIMIT} tasks exist and the oldest are left out.`, type: Boolean })
  tasks_truncated!: boolean;

  @ApiProperty({ description: 'Validator job backlog.', type: () => DashboardValidatorBacklogDto })
  validator_backlog!: DashboardValidatorBacklogDto;

  @ApiProperty({ description: `The last ${DASHBOARD_RECENT_DECISIONS} decided submissions, newest decision first (decided_at, then submission id).`, type: () => [DashboardDecisionDto] })
  recent_decisions!: DashboardDecisionDto[];
}
