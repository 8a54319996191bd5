import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import {
  ApiError,
  ApiValidationError,
  ArtifactDescriptorDto,
  ClaimStatus,
  CreateSubmissionDto,
  ErrorCode,
  isUuid,
  orRefused,
  type Refusable,
  SubmissionDetailDto,
  SubmissionQueryDto,
  TaskIdeaQueryDto,
  TaskState,
  ValidationErrorItem,
} from '@rcs/contracts';
import { checkPatch, patchViolationItems } from '@rcs/patch';
import { inTransaction } from '@rcs/persistence';
import { AuthPrincipal, assertOwner } from '@rcs/auth';
import { claimNotFound, ClaimsRepository, ClaimTasks, type SubmittedClaimTask } from '../claims/claims.module';
import { DomainEvents } from '../events/domain-events';
import { COORDINATOR_CONFIG } from '../config/config.module';
import { CoordinatorConfig } from '../config/config';
import { RateLimitService } from '../rate-limit/rate-limit.service';
import { SubmissionDetails } from '../submission-details/submission-details.module';
import { hasIdeaRules, isReplayed } from '../tasks/competition-modes';
import { assertTaskLive } from '../tasks/task-lookup';
import { TasksRepository } from '../tasks/tasks.module';
import { SubmissionEntity } from './entities/submission.entity';
import { type NewSubmission, SubmissionsRepository } from './submissions.repository';
import { toArtifactDescriptorDto } from './submission.mapper';
import { ideaViolations, submissionBodyViolations } from './submission-rules';

/** How many implementable ideas the centerless 422 names, newest first. */
const IMPLEMENTABLE_IDEAS_NAMED = 20;

@Injectable()
export class SubmissionsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(COORDINATOR_CONFIG) private readonly config: CoordinatorConfig,
    private readonly rateLimit: RateLimitService,
    private readonly submissions: SubmissionsRepository,
    private readonly events: DomainEvents,
    private readonly claims: ClaimsRepository,
    private readonly details: SubmissionDetails,
    private readonly claimTasks: ClaimTasks,
    private readonly tasks: TasksRepository,
  ) {}

  /**
   * Stores a submission on the signer's own active claim (DECISIONS.md §5): in one transaction the
   * claim becomes `submitted`, its work item `completed`, and (standard, centerless) a validator job
   * `pending`. Any failure leaves nothing behind.
   */
  async create(hotkey: string, body: CreateSubmissionDto): Promise<SubmissionEntity> {
    const bodyItems = submissionBodyViolations(body, { allowInsecureArtifactUris: this.config.allowInsecureArtifactUris });
    if (bodyItems.length > 0) throw new ApiValidationError(bodyItems);
    if (!isUuid(body.claim_id)) {
      await this.rateLimit.consume('submission', hotkey);
      throw claimNotFound(body.claim_id);
    }
    // The rate limit (Redis) and the read of the claim (Postgres) go out together; the limit answers first.
    const [limited, read] = await Promise.allSettled([this.rateLimit.consume('submission', hotkey), this.readForOneStatement(hotkey, body)]);
    if (limited.status === 'rejected') throw limited.reason;
    if (read.status === 'rejected') throw read.reason;
    const outcome =
      (read.value === null ? null : await this.createInOneStatement(read.value, hotkey, body)) ??
      (await inTransaction(this.dataSource, (manager) => this.createInTransaction(manager, hotkey, body)));
    const submission = orRefused(outcome);
    this.events.emit('submission.created', { submissionId: submission.id, taskId: submission.taskId });
    return submission;
  }

  /**
   * The first half of `createInOneStatement`: the task of the signer's active claim (as this process
   * remembers it from the claim, else read), or null when that path does not apply.
   */
  private async readForOneStatement(hotkey: string, body: CreateSubmissionDto): Promise<SubmittedClaimTask | null> {
    if (body.implemented_submission_id !== null) return null;
    let task = this.claimTasks.taskOf(body.claim_id) ?? null;
    if (task === null) {
      task = await this.claims.peekActive(this.dataSource.manager, body.claim_id, hotkey);
      if (task !== null) this.claimTasks.noteTask(task);
    }
    return task === null || task.taskState !== TaskState.Live || hasIdeaRules(task.competitionMode) ? null : task;
  }

  /**
   * The common case in one statement and no transaction (two round trips when this process did not
   * open the claim and reads its task first): check the rules on the claim's task, then take the claim
   * and store everything in one statement that holds only if the claim and the task are still as read. Null (nothing written) sends the request to `createInTransaction`, which decides it
   * afresh: a claim that is not the signer's active one, a task not live, a rule broken (it answers
   * the refusal), a centerless task or an implemented idea (their rules read other submissions under
   * a lock), or anything changed in between.
   */
  private async createInOneStatement(task: SubmittedClaimTask, hotkey: string, body: CreateSubmissionDto): Promise<{ value: SubmissionEntity } | null> {
    const manager = this.dataSource.manager;
    if (patchItems(body.patch, task).length > 0 || (await ideaItems(this.submissions, manager, task, hotkey, body)).length > 0) return null;
    const submission = await this.submissions.storePendingIfUnchanged(manager, newSubmission(task, hotkey, body), {
      validatorJob: isReplayed(task.competitionMode),
      task,
    });
    // Submitted on, or not as remembered: either way the claim takes no other submission through this path.
    this.claimTasks.forget(body.claim_id);
    return submission === null ? null : { value: submission };
  }

  private async createInTransaction(manager: EntityManager, hotkey: string, body: CreateSubmissionDto): Promise<Refusable<SubmissionEntity>> {
    // The claim taken and its task share-locked in one statement: a concurrent pause or close waits for this submission.
    const task = await this.claims.submitActive(manager, body.claim_id, hotkey);
    if (task === null) return { refusal: await claimRefusal(this.claims, this.submissions, manager, body.claim_id, hotkey) };
    this.claimTasks.noteTask(task);
    assertTaskLive(task);
    if (hasIdeaRules(task.competitionMode)) {
      // Idea rules read earlier submissions of the task: centerless submissions of one task take turns.
      await this.submissions.lockIdeasOf(manager, task.id);
    }
    const items = [...patchItems(body.patch, task), ...(await ideaItems(this.submissions, manager, task, hotkey, body))];
    if (items.length > 0) throw new ApiValidationError(items);

    const submission = await this.submissions.storePending(
      manager,
      newSubmission(task, hotkey, body),
      // Peer-evaluation submissions are decided by their peers, not replayed.
      { validatorJob: isReplayed(task.competitionMode) },
    );
    return { value: submission };
  }

  /** Newest first (`created_at DESC, id DESC`), paged. */
  list(query: SubmissionQueryDto): Promise<SubmissionEntity[]> {
    // A task id that is not a uuid names no task: no rows, and it never reaches the uuid column.
    if (query.task_id !== undefined && !isUuid(query.task_id)) return Promise.resolve([]);
    return this.submissions.list(this.dataSource.manager, query);
  }

  /** `GET /tasks/{task_id}/ideas`: the ideas proposed on the task, newest first; 404 `task_not_found` for an unknown task. */
  async ideas(taskId: string, query: TaskIdeaQueryDto): Promise<SubmissionEntity[]> {
    const task = await this.tasks.findOrThrow(this.dataSource.manager, taskId);
    return this.submissions.ideas(this.dataSource.manager, task.id, query);
  }

  get(submissionId: string): Promise<SubmissionEntity> {
    return this.submissions.findOrThrow(this.dataSource.manager, submissionId);
  }

  /** Owner (or admin) only: the submission with its verifications, peer evaluations, consensus and idea rewards. */
  async detail(principal: AuthPrincipal, submissionId: string): Promise<SubmissionDetailDto> {
    const { submission, task } = await this.submissions.findWithTask(this.dataSource.manager, submissionId);
    assertOwner(principal, submission.minerHotkey, ErrorCode.NotSubmissionOwner);
    return this.details.of(this.dataSource.manager, task, submission);
  }

  async executionLog(submissionId: string): Promise<string> {
    return (await this.get(submissionId)).executionLog ?? '';
  }

  async artifact(submissionId: string): Promise<ArtifactDescriptorDto> {
    const submission = await this.get(submissionId);
    const descriptor = toArtifactDescriptorDto(submission);
    if (descriptor === null) {
      throw ApiError.notFound(ErrorCode.ArtifactNotFound, `Submission ${submission.id} carries no artifact, only a patch.`, {
        submission_id: submission.id,
      });
    }
    return descriptor;
  }
}

/** Why the claim could not be taken: 404, 403 or 409. A claim found past its TTL is expired on the spot. */
async function claimRefusal(
  claims: ClaimsRepository,
  submissions: SubmissionsRepository,
  manager: EntityManager,
  claimId: string,
  hotkey: string,
): Promise<ApiError> {
  const claim = await claims.find(manager, claimId);
  if (!claim) return claimNotFound(claimId);
  if (claim.minerHotkey !== hotkey) {
    return ApiError.forbidden(ErrorCode.NotClaimOwner, 'Only the hotkey that owns this claim may submit on it.', { claim_id: claimId });
  }
  const context = { claim_id: claimId, claim_status: claim.status };
  const expired = () =>
    ApiError.conflict(ErrorCode.ClaimExpired, `Claim ${claimId} expired at ${claim.expiresAt.toISOString()}; claim the task again.`, { claim_id: claimId, claim_status: ClaimStatus.Expired });
  switch (claim.status) {
    case ClaimStatus.Active:
      // Owned and active, so only its TTL stopped it.
      if ((await claims.expireStale(manager, { claimId })).expired === 1) {
        return expired();
      }
      return ApiError.conflict(ErrorCode.ClaimNotActive, `Claim ${claimId} changed while this submission was checked; it is no longer active.`, context);
    case ClaimStatus.Expired:
      return expired();
    case ClaimStatus.Submitted: {
      // Names the submission, so a client whose first attempt committed unanswered can recover it.
      const submission = await submissions.findIdOfClaim(manager, claimId);
      return ApiError.conflict(
        ErrorCode.ClaimNotActive,
        `Claim ${claimId} already has its submission${submission ? ` ${submission.id}` : ''}; one submission per claim.`,
        { ...context, submission_id: submission?.id ?? null },
      );
    }
    case ClaimStatus.Cancelled:
      return ApiError.conflict(ErrorCode.ClaimNotActive, `Claim ${claimId} was cancelled.`, context);
  }
}

function newSubmission(task: SubmittedClaimTask, hotkey: string, body: CreateSubmissionDto): NewSubmission {
  return {
    taskId: task.id,
    claimId: body.claim_id,
    minerHotkey: hotkey,
    baseRef: body.base_ref,
    patch: body.patch,
    summary: body.summary,
    proposedIdea: body.proposed_idea,
    implementedSubmissionId: body.implemented_submission_id,
    artifactUri: body.artifact_uri,
    artifactSha256: body.artifact_sha256?.toLowerCase() ?? null,
    artifactSizeBytes: body.artifact_size_bytes,
    executionLog: body.execution_log,
    claimedMetrics: body.claimed_metrics,
  };
}

function patchItems(patch: string, task: SubmittedClaimTask): ValidationErrorItem[] {
  const result = checkPatch(patch, { allowedPatchPaths: task.allowedPatchPaths, maxPatchBytes: task.maxPatchBytes });
  return result.ok ? [] : patchViolationItems(result.violations);
}

async function ideaItems(submissions: SubmissionsRepository, manager: EntityManager, task: SubmittedClaimTask, hotkey: string, body: CreateSubmissionDto): Promise<ValidationErrorItem[]> {
  const implementedId = body.implemented_submission_id;
  const implemented =
    implementedId !== null && isUuid(implementedId) ? await submissions.find(manager, implementedId) : null;
  const needsOtherIdeas = hasIdeaRules(task.competitionMode) && implementedId === null;
  return ideaViolations(body, {
    mode: task.competitionMode,
    taskId: task.id,
    minerHotkey: hotkey,
    implementableIdeas: needsOtherIdeas ? await submissions.implementableIdeas(manager, task.id, hotkey, IMPLEMENTABLE_IDEAS_NAMED) : [],
    implemented,
  });
}

