import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ApiError, ApiValidationError, ClaimQueryDto, ClaimStatus, CreateTaskClaimDto, ErrorCode, isUuid, orRefused, type Refusable } from '@rcs/contracts';
import { inTransaction } from '@rcs/persistence';
import { CoordinatorConfig } from '../config/config';
import { COORDINATOR_CONFIG } from '../config/config.module';
import { RateLimitService } from '../rate-limit/rate-limit.service';
import { TaskEntity } from '../tasks/entities/task.entity';
import { assertTaskLive, taskNotFound, taskNotLive } from '../tasks/task-lookup';
import { TasksRepository } from '../tasks/tasks.module';
import type { ExpiryOutcome } from '../jobs/job-results';
import { ClaimTasks } from './claim-tasks';
import { ClaimsRepository } from './claims.repository';
import { ClaimEntity } from './entities/claim.entity';
import { claimNotFound } from './claim-errors';

/** What a new claim holds besides its task and miner. */
export interface ClaimRequest {
  minerHotkey: string;
  claimDescription: string;
  baseSubmissionId: string | null;
  workItemId: string | null;
}

/**
 * Claim lifecycle (DECISIONS.md §4): `active` for `CLAIM_TTL_SECONDS`, then `submitted`, `expired`
 * or `cancelled`. A past-TTL active claim is expired by the sweeper and on every use, so no answer
 * ever shows one as `active`.
 */
@Injectable()
export class ClaimsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(COORDINATOR_CONFIG) private readonly config: CoordinatorConfig,
    private readonly rateLimit: RateLimitService,
    private readonly claims: ClaimsRepository,
    private readonly tasks: TasksRepository,
    private readonly claimTasks: ClaimTasks,
  ) {}

  /** Newest first; stale active claims are expired first so the list never shows them active. */
  async list(query: ClaimQueryDto): Promise<ClaimEntity[]> {
    if (query.task_id !== undefined && !isUuid(query.task_id)) return [];
    await this.claims.expireStale(this.dataSource.manager, query.task_id === undefined ? {} : { taskId: query.task_id });
    return this.claims.list(this.dataSource.manager, query);
  }

  /** `GET /claims/{claim_id}`: 404 `claim_not_found` for an unknown id; a stale active claim is expired first. */
  async get(claimId: string): Promise<ClaimEntity> {
    if (!isUuid(claimId)) throw claimNotFound(claimId);
    await this.claims.expireStale(this.dataSource.manager, { claimId });
    const claim = await this.claims.find(this.dataSource.manager, claimId);
    if (!claim) throw claimNotFound(claimId);
    return claim;
  }

  /**
   * `POST /tasks/{task_id}/claim`. The rate limit counts every authenticated, well-formed attempt
   * (after the guard and the 422 pipe, before any database work), so probing costs attempts too.
   */
  async claimTask(taskId: string, hotkey: string, body: CreateTaskClaimDto): Promise<ClaimEntity> {
    await this.rateLimit.consume('claim', hotkey);
    if (body.base_submission_id === null) {
      // The common case in one statement; a conflict (perhaps with a claim past its TTL) takes the transaction below.
      if (!isUuid(taskId)) throw taskNotFound(taskId);
      const attempt = await this.claims.claimLiveTask(this.dataSource.manager, {
        taskId,
        minerHotkey: hotkey,
        claimDescription: body.claim_description,
        baseSubmissionId: null,
        ttlSeconds: this.config.claimTtlSeconds,
      });
      switch (attempt.outcome) {
        case 'claimed':
          this.claimTasks.remember(attempt.claim.id, attempt.task);
          return attempt.claim;
        case 'no_task':
          throw taskNotFound(taskId);
        case 'not_live':
          throw taskNotLive(attempt.taskId, attempt.slug, attempt.state);
        case 'conflict':
          break;
      }
    }
    return inTransaction(this.dataSource, async (manager) => {
      // A share lock: a concurrent pause or close waits for this claim instead of racing it.
      const task = await this.tasks.findOrThrow(manager, taskId, { lock: 'share' });
      assertTaskLive(task);
      if (body.base_submission_id !== null) await this.assertBaseSubmission(manager, task, body.base_submission_id);
      return this.open(manager, task, {
        minerHotkey: hotkey,
        claimDescription: body.claim_description,
        baseSubmissionId: body.base_submission_id,
        workItemId: null,
      });
    });
  }

  /**
   * Opens an active claim on a live task inside the caller's transaction: the insert first; when the
   * miner already holds an active claim on the task, that one claim (found by the unique index, and
   * expired by id) gives way if it is past its TTL, and the insert is tried once more. A second
   * active claim is 409 `duplicate_active_claim` naming the existing one. No statement scans the
   * task's other claims, so the cost does not grow with them.
   */
  async open(manager: EntityManager, task: TaskEntity, request: ClaimRequest): Promise<ClaimEntity> {
    const claim = { taskId: task.id, ttlSeconds: this.config.claimTtlSeconds, ...request };
    // Remembered before the transaction commits: a claim id that never commits is never submitted on.
    const remembered = (opened: ClaimEntity): ClaimEntity => {
      this.claimTasks.remember(opened.id, task);
      return opened;
    };
    const inserted = await this.claims.insertActive(manager, claim);
    if (inserted) return remembered(inserted);
    let existing = await this.claims.findActive(manager, task.id, request.minerHotkey);
    if (existing && (await this.claims.expireStale(manager, { claimId: existing.id })).expired === 1) {
      const retried = await this.claims.insertActive(manager, claim);
      if (retried) return remembered(retried);
      existing = await this.claims.findActive(manager, task.id, request.minerHotkey);
    }
    throw ApiError.conflict(
      ErrorCode.DuplicateActiveClaim,
      `This hotkey already holds an active claim on task ${task.slug}; submit on it or cancel it first.`,
      { claim_id: existing?.id ?? null, task_id: task.id },
    );
  }

  /** `POST /claims/{claim_id}/cancel`, owner only; a work item the claim held returns to `open`. */
  async cancel(claimId: string, hotkey: string): Promise<ClaimEntity> {
    if (!isUuid(claimId)) throw claimNotFound(claimId);
    const outcome = await inTransaction(this.dataSource, async (manager): Promise<Refusable<ClaimEntity>> => {
      const claim = await this.claims.find(manager, claimId, { lock: 'update' });
      if (!claim) throw claimNotFound(claimId);
      if (claim.minerHotkey !== hotkey) {
        throw ApiError.forbidden(ErrorCode.NotClaimOwner, 'Only the hotkey that owns this claim may cancel it.', { claim_id: claimId });
      }
      if (await this.claims.cancelActive(manager, claimId)) {
        await this.claims.releaseWorkItem(manager, claimId);
        return { value: await this.claims.get(manager, claimId) };
      }
      return { refusal: await this.cancelRefusal(manager, claim) };
    });
    return orRefused(outcome);
  }

  /** The sweeper's pass: every active claim past its TTL expires and its work item reopens. */
  expireAll(): Promise<ExpiryOutcome> {
    return this.claims.expireStale(this.dataSource.manager);
  }

  /** 422 unless `base_submission_id` names a submission of the claimed task. */
  private async assertBaseSubmission(manager: EntityManager, task: TaskEntity, submissionId: string): Promise<void> {
    const baseTaskId = isUuid(submissionId) ? await this.claims.findBaseSubmissionTaskId(manager, submissionId) : null;
    if (baseTaskId === task.id) return;
    const reason = baseTaskId === null ? 'not_found' : 'other_task';
    throw new ApiValidationError([
      {
        type: 'base_submission_invalid',
        loc: ['body', 'base_submission_id'],
        msg: reason === 'not_found' ? 'base_submission_id names no submission.' : 'base_submission_id names a submission of another task.',
        input: submissionId,
        ctx: { reason },
      },
    ]);
  }

  /** Why a locked, owned claim cannot be cancelled; one found past its TTL is expired on the spot. */
  private async cancelRefusal(manager: EntityManager, claim: ClaimEntity): Promise<ApiError> {
    const context = { claim_id: claim.id, claim_status: claim.status };
    switch (claim.status) {
      case ClaimStatus.Active:
        // Locked, owned and active: only its TTL can have stopped the cancel.
        await this.claims.expireStale(manager, { claimId: claim.id });
        return claimExpired(claim);
      case ClaimStatus.Expired:
        return claimExpired(claim);
      case ClaimStatus.Submitted:
        return ApiError.conflict(ErrorCode.ClaimNotActive, `Claim ${claim.id} already has its submission; it cannot be cancelled.`, context);
      case ClaimStatus.Cancelled:
        return ApiError.conflict(ErrorCode.ClaimNotActive, `Claim ${claim.id} is already cancelled.`, context);
    }
  }
}

function claimExpired(claim: ClaimEntity): ApiError {
  return ApiError.conflict(ErrorCode.ClaimExpired, `Claim ${claim.id} expired at ${claim.expiresAt.toISOString()}.`, {
    claim_id: claim.id,
    claim_status: ClaimStatus.Expired,
  });
}

