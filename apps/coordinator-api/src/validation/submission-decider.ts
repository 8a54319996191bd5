import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { SubmissionStatus, VerificationStatus } from '@rcs/contracts';
import { BestResultsService } from '../best-results/best-results.service';
import { SubmissionEntity } from '../submissions/entities/submission.entity';
import { TaskEntity } from '../tasks/entities/task.entity';
import { VerificationEntity } from './entities/verification.entity';
import { ObservedResult, observedNumber } from './observed-result';
import { insertVerification } from './verifications.repository';

/** One validator decision on one submission, about to be recorded. */
export interface ValidatorDecision {
  /** Read under the task row lock the caller holds in this transaction. */
  task: TaskEntity;
  submissionId: string;
  jobId: string;
  /** The allowlisted validator, or `coordinator` when the coordinator gave up on the job. */
  validatorHotkey: string;
  result: ObservedResult;
  /** Completes the job in this transaction; false when the job was no longer the caller's to complete. */
  completeJob: (manager: EntityManager) => Promise<boolean>;
}

/** The job could not be completed after its submission was decided: the transaction must not commit. */
export class JobCompletionLostError extends Error {
  constructor(readonly jobId: string) {
    super(`Validator job ${jobId} could not be completed with its submission's decision`);
    this.name = 'JobCompletionLostError';
  }
}

/** An accepted result reached the decision without a finite task metric: the 422 check was skipped. */
export class AcceptedWithoutMetricError extends Error {
  constructor(readonly submissionId: string) {
    super(`Accepted result for submission ${submissionId} carries no finite task metric`);
    this.name = 'AcceptedWithoutMetricError';
  }
}

/**
 * Steps 2–4 of the decision protocol for validator results (job result, manual verify, lease
 * exhaustion): the submission is decided by the observed metric, its verification stored, its job
 * completed and, when accepted, the best result considered — all in the caller's transaction, which
 * already holds the task row FOR UPDATE (step 1), so decisions of one task never interleave.
 */
@Injectable()
export class SubmissionDecider {
  constructor(private readonly bestResults: BestResultsService) {}

  /** The verification recorded, or null when the submission was already decided (nothing written). */
  async decide(manager: EntityManager, decision: ValidatorDecision): Promise<VerificationEntity | null> {
    const { task, result } = decision;
    const metric = observedNumber(result.observedMetrics, task.metricName);
    const secondary = observedNumber(result.observedMetrics, task.secondaryMetricName);
    const accepted = result.status === VerificationStatus.Accepted;
    if (accepted && metric === null) throw new AcceptedWithoutMetricError(decision.submissionId);

    const submission = await decideSubmission(manager, decision.submissionId, submissionStatus(result.status), {
      metric: accepted ? metric : null,
      secondary: accepted ? secondary : null,
    });
    if (submission === null) return null;
    const verification = await insertVerification(manager, {
      submissionId: submission.id,
      jobId: decision.jobId,
      taskId: task.id,
      validatorHotkey: decision.validatorHotkey,
      status: result.status,
      metricName: task.metricName,
      metricValue: metric,
      observedMetrics: result.observedMetrics,
      notes: result.notes,
      replayLog: result.replayLog,
    });
    if (!(await decision.completeJob(manager))) throw new JobCompletionLostError(decision.jobId);
    if (accepted && metric !== null) await this.bestResults.consider(manager, task, submission, { metric, secondary });
    return verification;
  }
}

function submissionStatus(status: VerificationStatus): SubmissionStatus {
  switch (status) {
    case VerificationStatus.Accepted:
      return SubmissionStatus.Accepted;
    case VerificationStatus.Rejected:
      return SubmissionStatus.Rejected;
    case VerificationStatus.Error:
      return SubmissionStatus.Error;
    case VerificationStatus.Pending:
      // VerifyDto admits only verdicts; a pending "result" decides nothing.
      throw new VerdictRequiredError(status);
  }
}

/** A decision needs a verdict (accepted, rejected or error). */
export class VerdictRequiredError extends Error {
  constructor(readonly status: VerificationStatus) {
    super(`A validator decision needs a verdict, not "${status}"`);
    this.name = 'VerdictRequiredError';
  }
}

/** `pending_verification` → the verdict, in one conditional UPDATE; null when it was already decided. */
async function decideSubmission(
  manager: EntityManager,
  submissionId: string,
  status: SubmissionStatus,
  verified: { metric: number | null; secondary: number | null },
): Promise<SubmissionEntity | null> {
  const rows = (await manager.query(
    `WITH decided AS (
       UPDATE submissions
       -- clock_timestamp(), not now(): decisions of a task commit in lock order, not in transaction-start order.
       SET status = $2, decided_at = clock_timestamp(), verified_metric_value = $3, verified_secondary_metric_value = $4,
           updated_at = now()
       WHERE id = $1 AND status = '${SubmissionStatus.PendingVerification}'
       RETURNING id
     )
     SELECT id FROM decided`,
    [submissionId, status, verified.metric, verified.secondary],
  )) as { id: string }[];
  return rows.length === 0 ? null : manager.findOneByOrFail(SubmissionEntity, { id: submissionId });
}
