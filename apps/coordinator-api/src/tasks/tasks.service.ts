import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ApiError, CreateTaskDto, ErrorCode, HeldoutBudgetDto, isUuid, TaskExposureDto, TaskQueryDto, TaskState, TaskStateUpdateDto } from '@rcs/contracts';
import { inTransaction, isUniqueViolation, ReadReplicas } from '@rcs/persistence';
import { DomainEvents } from '../events/domain-events';
import { ExposureService } from '../exposure/exposure.module';
import { HeldoutBudget, TaskEntity } from './entities/task.entity';
import { TASK_TRANSITIONS, TaskOperation } from './task-transitions';
import { NewTask, TasksRepository } from './tasks.repository';
import { taskNotFound } from './task-lookup';

const FULL_SHA1 = /^[0-9a-f]{40}$/i;

function newTask(body: CreateTaskDto): NewTask {
  return {
    slug: body.slug,
    title: body.title,
    brief: body.brief,
    onboardMd: body.onboard_md,
    repository: body.repository,
    baseRef: body.base_ref,
    // A full SHA-1 pins the exact commit validators check out; branch and tag names move.
    baseCommitSha: FULL_SHA1.test(body.base_ref) ? body.base_ref.toLowerCase() : null,
    setupCommand: body.setup_command,
    benchmarkCommand: body.benchmark_command,
    resultPath: body.result_path,
    allowedPatchPaths: body.allowed_patch_paths,
    maxPatchBytes: body.max_patch_bytes,
    metricName: body.metric_name,
    metricDirection: body.metric_direction,
    rankingMode: body.ranking_mode,
    secondaryMetricName: body.secondary_metric_name,
    secondaryMetricDirection: body.secondary_metric_direction,
    metricResolution: body.metric_resolution,
    metricResolutionMode: body.metric_resolution_mode,
    referenceModelId: body.reference_model_id,
    referenceParameterCount: body.reference_parameter_count,
    modelFamily: body.model_family,
    slugCompatibilityNote: body.slug_compatibility_note,
    validatorBenchmarkEnv: body.validator_benchmark_env,
    hardwareGpuCount: body.hardware?.gpu_count ?? null,
    hardwareGpuMemoryGb: body.hardware?.gpu_memory_gb ?? null,
    competitionMode: body.competition_mode,
    minPeerEvaluations: body.min_peer_evaluations,
    timeBudgetSeconds: body.time_budget_seconds,
    heldoutRotationSeconds: body.heldout_rotation_seconds,
    heldoutBudget: budgetOf(body.heldout_budget),
    taskState: TaskState.Live,
  };
}

function budgetOf(body: HeldoutBudgetDto | null): HeldoutBudget | null {
  return body === null ? null : { enabled: body.enabled, step: body.step, bits: body.bits, delta: body.delta };
}

/** A task with its held-out exposure (null: no budget), as public task routes answer it. */
export interface TaskWithExposure {
  task: TaskEntity;
  exposure: TaskExposureDto | null;
}

/** Tasks (competitions): creation, reading and the admin state moves (DECISIONS.md §3); the onboarding document is OnboardDocumentService's. */
@Injectable()
export class TasksService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly events: DomainEvents,
    private readonly tasks: TasksRepository,
    private readonly replicas: ReadReplicas,
    private readonly exposure: ExposureService,
  ) {}

  /** The tasks with their exposures, read in one query on the primary. */
  withExposureOf(tasks: TaskEntity[]): Promise<TaskWithExposure[]> {
    return this.withExposure(this.dataSource.manager, tasks);
  }

  private async withExposure(manager: EntityManager, tasks: TaskEntity[]): Promise<TaskWithExposure[]> {
    const exposures = await this.exposure.view(manager, tasks);
    return tasks.map((task) => ({ task, exposure: exposures.get(task.id) ?? null }));
  }

  /** Sets, changes or removes (null) the task's held-out budget (DECISIONS §17); it applies from the next decision on. */
  async setBudget(taskId: string, body: HeldoutBudgetDto | null): Promise<TaskWithExposure> {
    const task = await inTransaction(this.dataSource, async (manager) => {
      const locked = await this.tasks.findOrThrow(manager, taskId, { lock: 'update' });
      locked.heldoutBudget = budgetOf(body);
      await this.tasks.setBudget(manager, locked.id, locked.heldoutBudget);
      return locked;
    });
    const [answer] = await this.withExposure(this.dataSource.manager, [task]);
    return answer;
  }

  /** A new `live` task; 409 `duplicate_slug` when the slug is taken (decided by the unique constraint). */
  async create(body: CreateTaskDto): Promise<TaskEntity> {
    let task: TaskEntity;
    try {
      task = await this.tasks.insert(this.dataSource.manager, newTask(body));
    } catch (err) {
      if (isUniqueViolation(err, 'tasks_slug_unique')) {
        throw ApiError.conflict(ErrorCode.DuplicateSlug, `A task with slug ${body.slug} already exists.`, { slug: body.slug });
      }
      throw err;
    }
    // A new live task is a new competition of the reward snapshot.
    this.events.emit('task.state_changed', { taskId: task.id, previousState: null, state: task.taskState });
    return task;
  }

  /** Public and lag-tolerant: on a read replica when there is one (DECISIONS §19). */
  list(query: TaskQueryDto): Promise<TaskWithExposure[]> {
    return this.replicas.read(async (dataSource) => this.withExposure(dataSource.manager, await this.tasks.list(dataSource.manager, query)));
  }

  /** The task, or 404 `task_not_found` (also for an id that is not a uuid). */
  get(taskId: string): Promise<TaskEntity> {
    return this.tasks.findOrThrow(this.dataSource.manager, taskId);
  }

  /** The task with its exposure, or 404 `task_not_found`. */
  async getWithExposure(taskId: string): Promise<TaskWithExposure> {
    const [answer] = await this.withExposure(this.dataSource.manager, [await this.get(taskId)]);
    return answer;
  }

  /** pause, resume or close in one locked statement; 404 for an unknown task, 409 `invalid_task_transition` for a refused move. */
  async transition(taskId: string, operation: TaskOperation): Promise<TaskStateUpdateDto> {
    const rule = TASK_TRANSITIONS[operation];
    const move = isUuid(taskId) ? await this.tasks.moveState(this.dataSource.manager, taskId, rule.from, rule.to) : null;
    if (move === null) throw taskNotFound(taskId);
    if (move.updatedAt === null) {
      throw ApiError.conflict(ErrorCode.InvalidTaskTransition, `Cannot ${operation} a task that is ${move.previousState}.`, {
        task_id: taskId,
        task_state: move.previousState,
        requested: operation,
      });
    }
    this.events.emit('task.state_changed', { taskId, previousState: move.previousState, state: rule.to });
    return {
      task_id: taskId,
      previous_state: move.previousState,
      task_state: rule.to,
      is_active: rule.to === TaskState.Live,
      updated_at: move.updatedAt.toISOString(),
    };
  }
}
