import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import {
  ApiError,
  ApiValidationError,
  ErrorCode,
  PeerConsensusDto,
  PeerEvaluateDto,
  PeerEvaluationQueryDto,
  SubmissionStatus,
  VerificationStatus,
} from '@rcs/contracts';
import { isUniqueViolation } from '@rcs/persistence';
import { DecisionService, DecisionTransaction } from '../decisions/decisions.module';
import { SubmissionDetails } from '../submission-details/submission-details.module';
import { SubmissionEntity } from '../submissions/entities/submission.entity';
import { SubmissionsRepository } from '../submissions/submissions.module';
import { isPeerEvaluated } from '../tasks/competition-modes';
import { TaskEntity } from '../tasks/entities/task.entity';
import { PeerEvaluationEntity } from './entities/peer-evaluation.entity';
import { MinerOwners } from './miner-owners';
import { ONE_EVALUATION_PER_EVALUATOR, ONE_EVALUATION_PER_OWNER, PeerEvaluationRepository } from './peer-evaluation.repository';
import { observedNumber } from '../validator-jobs/observed-result';
import { PeerDecision, peerDecision, peerEvaluationViolations, PeerVerdicts } from './peer-evaluation.rules';

/**
 * Peer evaluation of peer_evaluation tasks (spec rule 5, DECISIONS.md §6). Like pending verifications
 * (DECISIONS.md §3), evaluations of pending submissions still count while the task is paused or closed.
 */
@Injectable()
export class PeerEvaluationService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly decisions: DecisionService,
    private readonly evaluations: PeerEvaluationRepository,
    private readonly submissions: SubmissionsRepository,
    private readonly owners: MinerOwners,
    private readonly details: SubmissionDetails,
  ) {}

  /**
   * Records `evaluator`'s verdict on a pending submission of another owner's miner (DECISIONS.md §6: consensus
   * counts distinct owner coldkeys, so one owner's hotkeys cannot decide a submission, nor their own). The
   * evaluation that brings a count to the task's `min_peer_evaluations` decides the submission in its own transaction.
   */
  async evaluate(evaluator: string, submissionId: string, body: PeerEvaluateDto): Promise<PeerEvaluationEntity> {
    const { submission, task } = await this.submissions.findWithTask(this.dataSource.manager, submissionId);
    assertPeerEvaluationTask(task, submission);
    if (submission.minerHotkey === evaluator) {
      throw ApiError.forbidden(ErrorCode.CannotEvaluateOwnSubmission, 'A miner cannot evaluate its own submission.', { submission_id: submission.id });
    }
    const items = peerEvaluationViolations(body, task.metricName);
    if (items.length > 0) throw new ApiValidationError(items);
    const [owner, submitterOwner] = await Promise.all([this.owners.ownerOf(evaluator), this.owners.ownerOf(submission.minerHotkey)]);
    if (owner === submitterOwner) {
      throw ApiError.forbidden(ErrorCode.OwnSubmission, `${evaluator} has the same owner coldkey as the submitter; an owner cannot evaluate its own submission.`, {
        submission_id: submission.id,
        owner_coldkey: owner,
      });
    }
    try {
      return (await this.decisions.transaction((tx) => this.record(tx, { hotkey: evaluator, owner }, submission, body))).evaluation;
    } catch (error) {
      if (isUniqueViolation(error, ONE_EVALUATION_PER_EVALUATOR)) throw duplicateEvaluation(evaluator, submission);
      if (isUniqueViolation(error, ONE_EVALUATION_PER_OWNER)) throw evaluatedByOwner(owner, submission);
      throw error;
    }
  }

  /** The consensus so far; 404 for an unknown submission, 409 `peer_evaluation_not_allowed` outside peer_evaluation tasks. */
  async consensus(submissionId: string): Promise<PeerConsensusDto> {
    const manager = this.dataSource.manager;
    const { submission, task } = await this.submissions.findWithTask(manager, submissionId);
    assertPeerEvaluationTask(task, submission);
    return this.details.consensus(manager, task, submission);
  }

  list(query: PeerEvaluationQueryDto): Promise<PeerEvaluationEntity[]> {
    return this.evaluations.list(this.dataSource.manager, query);
  }

  /** The decision protocol: task row FOR UPDATE, then the evaluation, the count and, at the threshold, the decision. */
  private async record(
    tx: DecisionTransaction,
    evaluator: { hotkey: string; owner: string },
    checked: SubmissionEntity,
    body: PeerEvaluateDto,
  ): Promise<{ evaluation: PeerEvaluationEntity; decided: boolean }> {
    // The per-task lock: evaluations (and every other decision) of one task take turns, so each counts all earlier ones.
    const task = await tx.lockTask(checked.taskId);
    const manager = tx.manager;
    const submission = await this.submissions.findOrThrow(manager, checked.id);
    if (submission.status !== SubmissionStatus.PendingVerification) throw alreadyDecided(submission);
    // Under the task lock every earlier evaluation is visible: refuse the owner's second one by name, not by constraint.
    const earlier = await this.evaluations.findByOwner(manager, submission.id, evaluator.owner);
    if (earlier !== null) {
      throw earlier.evaluatorHotkey === evaluator.hotkey ? duplicateEvaluation(evaluator.hotkey, submission) : evaluatedByOwner(evaluator.owner, submission);
    }
    const evaluation = await this.evaluations.insert(manager, {
      submissionId: submission.id,
      taskId: task.id,
      evaluatorHotkey: evaluator.hotkey,
      evaluatorOwner: evaluator.owner,
      status: body.status,
      observedMetrics: body.observed_metrics,
      metricValue: observedNumber(body.observed_metrics, task.metricName),
      notes: body.notes,
    });
    const decision = peerDecision(verdictsOf(await this.evaluations.listForSubmission(manager, submission.id), task), task.minPeerEvaluations);
    if (decision !== null) await this.decide(tx, task, submission, decision);
    return { evaluation, decided: decision !== null };
  }

  private async decide(tx: DecisionTransaction, task: TaskEntity, submission: SubmissionEntity, decision: PeerDecision): Promise<void> {
    // A peer decision is a verdict of the decision protocol, recorded like every other.
    if ((await tx.decide({ task, submissionId: submission.id, verdict: decision })) === null) throw alreadyDecided(submission);
  }
}

function assertPeerEvaluationTask(task: TaskEntity, submission: SubmissionEntity): void {
  if (isPeerEvaluated(task.competitionMode)) return;
  throw ApiError.conflict(
    ErrorCode.PeerEvaluationNotAllowed,
    `Submission ${submission.id} belongs to a ${task.competitionMode} task: validators decide it, not peer evaluation.`,
    { submission_id: submission.id, task_id: task.id, competition_mode: task.competitionMode },
  );
}

function duplicateEvaluation(evaluator: string, submission: SubmissionEntity): ApiError {
  return ApiError.conflict(ErrorCode.DuplicatePeerEvaluation, `${evaluator} has already evaluated submission ${submission.id}.`, {
    submission_id: submission.id,
    evaluator_hotkey: evaluator,
  });
}

function evaluatedByOwner(owner: string, submission: SubmissionEntity): ApiError {
  return ApiError.conflict(
    ErrorCode.AlreadyEvaluatedByOwner,
    `Another hotkey of owner ${owner} has already evaluated submission ${submission.id}; consensus counts each owner once.`,
    { submission_id: submission.id, owner_coldkey: owner },
  );
}

function alreadyDecided(submission: SubmissionEntity): ApiError {
  return ApiError.conflict(ErrorCode.SubmissionAlreadyDecided, `Submission ${submission.id} is already ${submission.status}; it takes no more evaluations.`, {
    submission_id: submission.id,
    submission_status: submission.status,
  });
}

/** Accepted evaluations always carry the task metric (the route refuses one without it). */
function verdictsOf(evaluations: PeerEvaluationEntity[], task: TaskEntity): PeerVerdicts {
  const verdicts: PeerVerdicts = { accepted: [], rejected: 0, error: 0 };
  for (const evaluation of evaluations) {
    switch (evaluation.status) {
      case VerificationStatus.Accepted:
        if (evaluation.metricValue !== null) {
          verdicts.accepted.push({ metric: evaluation.metricValue, secondary: observedNumber(evaluation.observedMetrics, task.secondaryMetricName) });
        }
        break;
      case VerificationStatus.Rejected:
        verdicts.rejected += 1;
        break;
      case VerificationStatus.Error:
        verdicts.error += 1;
        break;
      case VerificationStatus.Pending:
        break;
    }
  }
  return verdicts;
}
