import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import {
  ApiError,
  ApiValidationError,
  ErrorCode,
  isUuid,
  ScanRequestDto,
  ValidationErrorItem,
  ValidatorJobClaimDto,
  ValidatorJobDto,
  ValidatorJobReason,
  ValidatorJobResultDto,
  ValidatorJobStatus,
  VerificationStatus,
} from '@rcs/contracts';
import { validationItem } from '@rcs/http';
import { CoordinatorConfig } from '../config/config';
import { COORDINATOR_CONFIG } from '../config/config.module';
import { DecisionService, DecisionTransaction } from '../decisions/decisions.module';
import { ExposureService } from '../exposure/exposure.module';
import { HeldoutService } from '../heldout/heldout.module';
import type { LeaseExpiryOutcome } from '../jobs/job-results';
import { SubmissionEntity } from '../submissions/entities/submission.entity';
import { SubmissionDetails } from '../submission-details/submission-details.module';
import { SubmissionsRepository } from '../submissions/submissions.module';
import { TaskEntity } from '../tasks/entities/task.entity';
import { TasksRepository } from '../tasks/tasks.module';
import { ValidatorJobEntity } from './entities/validator-job.entity';
import { VerificationEntity } from './entities/verification.entity';
import { ObservedResult, ResultRule, resultViolations, sameResult, toObservedResult } from './observed-result';
import { JobCompletionLostError, SubmissionDecider } from './submission-decider';
import { rotationAt } from './heldout-rotation';
import { toValidatorJobDto } from './validator-job.mapper';
import { ExhaustedJob, ValidatorJobsRepository } from './validator-jobs.repository';
import { VerificationsRepository } from './verifications.repository';

/** The hotkey recorded on verifications the coordinator itself writes (a job out of lease attempts). */
export const COORDINATOR_HOTKEY = 'coordinator';


type LeasedJob = ValidatorJobEntity & { leaseExpiresAt: Date; heldoutRotationSlot: number; heldoutRotationNumber: string };

/** A result post that found its job completed: answered from the recorded verification, after the transaction. */
type ResultOutcome = { verification: VerificationEntity } | { completed: true };

/**
 * Validator worklists and results (DECISIONS.md §6). A job is leased to one validator for the task's
 * time budget plus LEASE_GRACE_SECONDS; only that validator may post its result, which decides the
 * submission by the observed metric. Expired leases return the job to the pool; after
 * MAX_JOB_ATTEMPTS expiries the submission is decided as `error`.
 */
@Injectable()
export class ValidatorJobsService {
  private readonly logger = new Logger(ValidatorJobsService.name);

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(COORDINATOR_CONFIG) private readonly config: CoordinatorConfig,
    private readonly jobs: ValidatorJobsRepository,
    private readonly decider: SubmissionDecider,
    private readonly decisions: DecisionService,
    private readonly verifications: VerificationsRepository,
    private readonly submissions: SubmissionsRepository,
    private readonly tasks: TasksRepository,
    private readonly details: SubmissionDetails,
    private readonly heldout: HeldoutService,
    private readonly exposure: ExposureService,
  ) {}

  /**
   * Leases up to `limit` pending jobs to the validator. Expired leases go back to the pool first, so
   * a scan never waits for the sweeper to see them; exhausted jobs are left to the sweeper, which
   * decides their submissions (they stay leased, so nobody receives them meanwhile). Only jobs whose
   * task hardware the declared capabilities meet are leased. Each lease picks its job's held-out shard in
   * the same transaction; `baseUrl` is where the validator reaches this service.
   */
  async scan(validatorHotkey: string, body: ScanRequestDto, baseUrl: string): Promise<ValidatorJobDto[]> {
    // A task id that is not a uuid names no task, so it filters every job out.
    if (body.task_id !== null && !isUuid(body.task_id)) return [];
    const manager = this.dataSource.manager;
    await this.jobs.returnExpiredLeases(manager, this.config.maxJobAttempts);
    const leased = await this.dataSource.transaction(async (tx) => {
      const jobs = await this.jobs.lease(tx, {
        validatorHotkey,
        taskId: body.task_id,
        taskSlug: body.task_slug,
        limit: body.limit,
        graceSeconds: this.config.leaseGraceSeconds,
        // No capabilities: a CPU-only validator, which never receives a GPU task.
        gpuCount: body.capabilities?.gpu_count ?? 0,
        gpuMemoryGb: body.capabilities?.gpu_memory_gb ?? 0,
      });
      // The leased jobs' tasks, read once: the shard choice and the answer both need them.
      const tasks = jobs.length === 0 ? [] : await this.tasks.findMany(tx, [...new Set(jobs.map((job) => job.taskId))]);
      await this.heldout.assignForLease(tx, jobs, tasks, await this.exposure.leaseShards(tx, tasks));
      await this.fixRotations(tx, jobs, tasks);
      return { jobs, tasks };
    });
    return this.describe(manager, leased.jobs.filter((job): job is LeasedJob => job.leaseExpiresAt !== null && job.heldoutRotationSlot !== null && job.heldoutRotationNumber !== null), leased.tasks, baseUrl);
  }

  /** Each leased job's rotation pair, fixed at its first lease from the transaction's clock (DECISIONS §15). */
  private async fixRotations(tx: EntityManager, jobs: ValidatorJobEntity[], tasks: TaskEntity[]): Promise<void> {
    if (jobs.length === 0) return;
    const now = await this.jobs.leaseClock(tx);
    const taskById = new Map(tasks.map((task) => [task.id, task]));
    const { secret, defaultSeconds } = this.config.heldoutRotation;
    for (const job of jobs) {
      const period = taskById.get(job.taskId)?.heldoutRotationSeconds ?? defaultSeconds;
      await this.jobs.fixRotation(tx, job, rotationAt(secret, job.taskId, period, now));
    }
  }

  /** The single-job form of scan; 404 `no_pending_validator_jobs` when there is nothing to lease. */
  async claim(validatorHotkey: string, body: ValidatorJobClaimDto, baseUrl: string): Promise<ValidatorJobDto> {
    const [job] = await this.scan(validatorHotkey, Object.assign(new ScanRequestDto(), body, { limit: 1 }), baseUrl);
    if (job === undefined) {
      // compat: clients match "no pending validator jobs" in the message.
      throw ApiError.notFound(ErrorCode.NoPendingValidatorJobs, 'There are no pending validator jobs right now.', {
        task_id: body.task_id,
        task_slug: body.task_slug,
      });
    }
    return job;
  }

  /**
   * The lessee's result. An identical re-post for a completed job answers the recorded verification;
   * a different one is 409 `job_already_completed`.
   */
  async postResult(validatorHotkey: string, jobId: string, body: ValidatorJobResultDto): Promise<VerificationEntity> {
    const job = isUuid(jobId) ? await this.jobs.find(this.dataSource.manager, jobId) : null;
    if (!job) throw ApiError.notFound(ErrorCode.JobNotFound, `No validator job with id ${jobId}.`, { job_id: jobId });
    const task = await this.tasks.findOrThrow(this.dataSource.manager, job.taskId);
    const items: ValidationErrorItem[] = [...resultViolations(body, task)];
    if (body.submission_id !== null && body.submission_id !== job.submissionId) {
      items.push(
        validationItem(ResultRule.SubmissionMismatch, ['body', 'submission_id'], `Job ${job.id} replays submission ${job.submissionId}, not this one.`, body.submission_id),
      );
    }
    if (items.length > 0) throw new ApiValidationError(items);

    const result = toObservedResult(body);
    const outcome =
      job.status === ValidatorJobStatus.Completed
        ? ({ completed: true } as const)
        : await this.decisions.transaction((tx) => this.decideLeased(tx, job, validatorHotkey, result));
    if (!('verification' in outcome)) return this.repost(job.id, validatorHotkey, result);
    return outcome.verification;
  }

  /** The sweeper's pass: expired leases return to the pool, exhausted jobs end their submission in `error`. */
  async expireLeases(): Promise<LeaseExpiryOutcome> {
    const returned = await this.jobs.returnExpiredLeases(this.dataSource.manager, this.config.maxJobAttempts);
    let errored = 0;
    for (const job of await this.jobs.findExhausted(this.dataSource.manager, this.config.maxJobAttempts)) {
      // One job per transaction: a failure is logged and retried by the next sweep without holding back the others.
      try {
        if (await this.decisions.transaction((tx) => this.decideExhausted(tx, job))) errored += 1;
      } catch (error) {
        this.logger.error(`Could not end exhausted validator job ${job.id}: ${(error as Error).message}`);
      }
    }
    return { returned, errored };
  }

  /** Decision protocol for a result: task row lock, then the job row, then the decision itself. */
  private async decideLeased(
    tx: DecisionTransaction,
    job: ValidatorJobEntity,
    validatorHotkey: string,
    result: ObservedResult,
  ): Promise<ResultOutcome> {
    const task = await tx.lockTask(job.taskId);
    const current = await this.jobs.find(tx.manager, job.id, { lock: true });
    if (!current || current.status === ValidatorJobStatus.Completed) return { completed: true };
    if (current.status !== ValidatorJobStatus.Leased || current.validatorHotkey !== validatorHotkey) {
      throw jobNotLeased(current, validatorHotkey);
    }
    if (current.reason === ValidatorJobReason.Rescore) return this.rescoreLeased(tx, task, current, validatorHotkey, result);
    const verification = await this.decider.decide(tx, { task, submissionId: current.submissionId, jobId: current.id, validatorHotkey, result, scoredOn: current.heldoutSha256 });
    if (verification === null) {
      throw ApiError.conflict(ErrorCode.SubmissionAlreadyDecided, `Submission ${current.submissionId} was already decided.`, {
        submission_id: current.submissionId,
        job_id: current.id,
      });
    }
    // The row is locked and leased to this validator: only the clock can have ended the lease.
    if (!(await this.jobs.completeLease(tx.manager, current.id, validatorHotkey))) throw jobNotLeased(current, validatorHotkey);
    await tx.conclude();
    return { verification };
  }

  /** A re-score's result (DECISIONS §17): its verification recorded, its submission's release and the task's R updated, the job completed. */
  private async rescoreLeased(tx: DecisionTransaction, task: TaskEntity, job: ValidatorJobEntity, validatorHotkey: string, result: ObservedResult): Promise<ResultOutcome> {
    const verification = await this.decider.rescore(tx, { task, submissionId: job.submissionId, jobId: job.id, validatorHotkey, result, scoredOn: job.heldoutSha256 }, job.exposureId);
    if (!(await this.jobs.completeLease(tx.manager, job.id, validatorHotkey))) throw jobNotLeased(job, validatorHotkey);
    return { verification };
  }

  /** A re-post to a completed job: the same result by the same validator is answered again, anything else is 409. */
  private async repost(jobId: string, validatorHotkey: string, result: ObservedResult): Promise<VerificationEntity> {
    const recorded = await this.verifications.findForJob(this.dataSource.manager, jobId);
    if (recorded && recorded.validatorHotkey === validatorHotkey && sameResult(recorded, result)) return recorded;
    throw ApiError.conflict(ErrorCode.JobAlreadyCompleted, `Job ${jobId} is already completed with a different result.`, {
      job_id: jobId,
      verification_id: recorded?.id ?? null,
    });
  }

  /**
   * The submission of a job that ran out of lease attempts is decided as `error`; false when another sweep did it.
   * A re-score job that ran out ends as a failed re-score (DECISIONS §17): the submission stays decided, and a leader's
   * ends the wait of what was held for it, which is then released, instead of holding it until the next rotation.
   */
  private async decideExhausted(tx: DecisionTransaction, job: ExhaustedJob): Promise<boolean> {
    const task = await tx.lockTask(job.taskId);
    const note = `The validator lease expired ${job.expiries} times without a result; the coordinator stopped replaying this submission.`;
    const decision = {
      task,
      submissionId: job.submissionId,
      jobId: job.id,
      validatorHotkey: COORDINATOR_HOTKEY,
      result: { status: VerificationStatus.Error, observedMetrics: {}, notes: note, replayLog: null },
    };
    if (job.reason === ValidatorJobReason.Rescore) {
      const current = await this.jobs.find(tx.manager, job.id, { lock: true });
      // Another replica's sweep, or a late result, ended it first.
      if (!current || current.status !== ValidatorJobStatus.Leased) return false;
      await this.decider.rescore(tx, { ...decision, scoredOn: job.heldoutSha256 }, job.exposureId);
      if (!(await this.jobs.completeExhausted(tx.manager, job.id, note))) throw new JobCompletionLostError(job.id);
      return true;
    }
    const verification = await this.decider.decide(tx, decision);
    const completed = await this.jobs.completeExhausted(tx.manager, job.id, note);
    // Its submission was decided another way (or by another replica's sweep): the job only needed closing.
    if (verification === null) return false;
    if (!completed) throw new JobCompletionLostError(job.id);
    await tx.conclude();
    return true;
  }

  /** Leased jobs as validators receive them, oldest first; `tasks` holds every job's task. */
  private async describe(manager: EntityManager, jobs: LeasedJob[], tasks: TaskEntity[], baseUrl: string): Promise<ValidatorJobDto[]> {
    if (jobs.length === 0) return [];
    const submissions = await this.submissions.findMany(manager, jobs.map((job) => job.submissionId));
    const taskById = new Map(tasks.map((task) => [task.id, task]));
    const submissionById = new Map(submissions.map((submission) => [submission.id, submission]));
    return Promise.all(
      jobs.map(async (job) => {
        const task = taskById.get(job.taskId) as TaskEntity;
        const submission = submissionById.get(job.submissionId) as SubmissionEntity;
        const benchmarkEnv = this.heldout.jobEnv(task.validatorBenchmarkEnv, job, baseUrl);
        return toValidatorJobDto(job, task, submission, await this.details.of(manager, task, submission), benchmarkEnv);
      }),
    );
  }
}

/** 409 `job_not_leased`, saying whether the job is back in the pool, leased to someone else, or the caller's lease ran out. */
function jobNotLeased(job: ValidatorJobEntity, validatorHotkey: string): ApiError {
  const context = { job_id: job.id, job_status: job.status };
  if (job.status === ValidatorJobStatus.Pending) {
    return ApiError.conflict(ErrorCode.JobNotLeased, `Job ${job.id} is pending: no validator holds its lease (an expired lease returns the job to the pool); scan to lease it.`, context);
  }
  if (job.validatorHotkey !== validatorHotkey) {
    return ApiError.conflict(ErrorCode.JobNotLeased, `Job ${job.id} is leased to another validator; only the lessee may post its result.`, context);
  }
  return ApiError.conflict(
    ErrorCode.JobNotLeased,
    `Your lease on job ${job.id} expired at ${job.leaseExpiresAt?.toISOString() ?? 'an earlier time'}; the result can no longer be posted.`,
    context,
  );
}
