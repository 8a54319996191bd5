import { ApiProperty, PickType } from '@nestjs/swagger';
import { TaskDto } from '../tasks/task.dto';
import { TaskExposureDto } from '../tasks/heldout-budget.dto';
import { CompetitionMode, MetricDirection, SubmissionStatus, TaskState } from '../enums';
import { ApiBoolean, ApiDateTime, ApiEnum, ApiInteger, ApiIntegerOrNull, ApiNumber, ApiNumberOrNull, ApiText } from '../common/api-fields';

/** The dashboard lists at most this many tasks, newest first; `tasks_truncated` says when more exist. */
export const DASHBOARD_TASK_LIMIT = 200;

/** How many of the latest decisions the dashboard shows. */
export const DASHBOARD_RECENT_DECISIONS = 20;

/** How many tasks are in each state, over every task (not only the listed ones). */
export class DashboardTaskCountsDto {
  @ApiInteger('Tasks in state `live`.')
  live!: number;

  @ApiInteger('Tasks in state `paused`.')
  paused!: number;

  @ApiInteger('Tasks in state `closed`.')
  closed!: number;

  @ApiInteger('All tasks.')
  total!: number;
}

/** A task's current best result, in short. */
export class DashboardBestDto {
  @ApiText('Submission holding the best result.')
  submission_id!: string;

  @ApiText('Hotkey of the miner holding the best.')
  miner_hotkey!: string;

  @ApiNumber('Verified value of the task metric.')
  metric_value!: number;

  @ApiDateTime('When this result became the best.')
  updated_at!: string;
}

/** Submissions of a task per status; every status is present, zeros included. */
export class DashboardSubmissionCountsDto {
  @ApiInteger('Submissions waiting for a decision.')
  pending_verification!: number;

  @ApiInteger('Accepted submissions.')
  accepted!: number;

  @ApiInteger('Rejected submissions.')
  rejected!: number;

  @ApiInteger('Submissions decided as `error`.')
  error!: number;

  @ApiInteger('All submissions of the task.')
  total!: number;
}

/** One task at a glance; validator-private fields are never part of it. */
export class DashboardTaskDto extends PickType(TaskDto, ['id', 'slug', 'title'] as const) {
  @ApiEnum(TaskState, 'Task state.')
  task_state!: TaskState;

  @ApiEnum(CompetitionMode, 'Competition rules of the task.')
  competition_mode!: CompetitionMode;

  @ApiText('Primary metric key.')
  metric_name!: string;

  @ApiEnum(MetricDirection, 'Direction of the primary metric.')
  metric_direction!: MetricDirection;

  @ApiDateTime('Creation time; tasks are listed newest first.')
  created_at!: string;

  @ApiProperty({ description: 'The current best result; null before the first accepted result.', type: () => DashboardBestDto, nullable: true })
  best!: DashboardBestDto | null;

  @ApiProperty({ description: 'Submissions per status.', type: () => DashboardSubmissionCountsDto })
  submissions!: DashboardSubmissionCountsDto;

  @ApiInteger('Claims that are `active` and not past their expiry (a claim past its TTL never counts).')
  active_claims!: number;

  @ApiInteger('Work items in status `open`.')
  open_work_items!: number;

  @ApiProperty({ description: 'What the active held-out shard has released (DECISIONS §17); null when the task has no budget.', type: () => TaskExposureDto, nullable: true })
  exposure!: TaskExposureDto | null;
}

/** The validators' queue of work. */
export class DashboardValidatorBacklogDto {
  @ApiInteger('Validator jobs waiting for a validator.')
  pending_jobs!: number;

  @ApiInteger('Validator jobs leased to a validator, expired leases included.')
  leased_jobs!: number;

  @ApiInteger('Leased jobs whose lease has run out and that have not yet returned to the pool.')
  expired_leases!: number;

  @ApiIntegerOrNull('Whole seconds since the oldest pending job was created (a returned lease keeps its age); null when none is pending.')
  oldest_pending_age_seconds!: number | null;
}

/** One decided submission. */
export class DashboardDecisionDto {
  @ApiText('Task id.')
  task_id!: string;

  @ApiText('Task slug.')
  task_slug!: string;

  @ApiText('Decided submission.')
  submission_id!: string;

  @ApiText('Hotkey of the submitting miner.')
  miner_hotkey!: string;

  @ApiEnum(SubmissionStatus, 'The decision: `accepted`, `rejected` or `error`.')
  status!: SubmissionStatus;

  @ApiText('Task metric name.')
  metric_name!: string;

  @ApiNumberOrNull('Verified value of the task metric; null when the decision carried none.')
  verified_metric_value!: number | null;

  @ApiDateTime('When the submission was decided.')
  decided_at!: string;
}

/** `GET /api/v1/dashboard`: what operators and miners want at a glance, from one consistent read. */
export class DashboardDto {
  @ApiDateTime('The moment every number was read at.')
  generated_at!: string;

  @ApiProperty({ description: 'Tasks per state, over every task.', type: () => DashboardTaskCountsDto })
  task_counts!: DashboardTaskCountsDto;

  @ApiProperty({ description: `Tasks, newest first (created_at, then id), at most ${DASHBOARD_TASK_LIMIT}.`, type: () => [DashboardTaskDto] })
  tasks!: DashboardTaskDto[];

  @ApiBoolean(`True when more than ${DASHBOARD_TASK_LIMIT} tasks exist and the oldest are left out.`)
  tasks_truncated!: boolean;

  @ApiProperty({ description: 'Validator job backlog.', type: () => DashboardValidatorBacklogDto })
  validator_backlog!: DashboardValidatorBacklogDto;

  @ApiProperty({ description: `The last ${DASHBOARD_RECENT_DECISIONS} decided submissions, newest decision first (decided_at, then submission id).`, type: () => [DashboardDecisionDto] })
  recent_decisions!: DashboardDecisionDto[];
}
