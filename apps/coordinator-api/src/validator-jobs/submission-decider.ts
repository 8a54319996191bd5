import { Injectable } from '@nestjs/common';
import { SubmissionStatus, VerificationStatus } from '@rcs/contracts';
import { submissionStatusOf } from '../decisions/decision-status';
import { DecisionTransaction, Verdict } from '../decisions/decisions.module';
import { TaskEntity } from '../tasks/entities/task.entity';
import { VerificationEntity } from './entities/verification.entity';
import { ObservedResult, observedNumber } from './observed-result';
import { NewVerification, VerificationsRepository } from './verifications.repository';

/** One validator decision on one submission, about to be recorded. */
export interface ValidatorDecision {
  /** Read by `lockTask` in the caller's decision transaction. */
  task: TaskEntity;
  submissionId: string;
  jobId: string;
  /** The allowlisted validator, or `coordinator` when the coordinator gave up on the job. */
  validatorHotkey: string;
  result: ObservedResult;
  /** The held-out shard the job was given (undefined: not known, as for the coordinator's own decisions). */
  scoredOn?: string | null;
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
 * A validator decision (job result, manual verify, lease exhaustion) through the decision protocol, in
 * the caller's decision transaction, which already holds the task row FOR UPDATE: the submission
 * decided by the observed metric (step 2) and its verification stored (step 3). The caller then
 * completes the job and concludes the decision (`tx.conclude()`).
 */
@Injectable()
export class SubmissionDecider {
  constructor(private readonly verifications: VerificationsRepository) {}

  /** A re-score job's result (DECISIONS §17): the submission stays decided; its release, R and the best may move (DecisionTransaction.rescore). */
  async rescore(tx: DecisionTransaction, decision: ValidatorDecision, exposureId: string | null): Promise<VerificationEntity> {
    const { task, result } = decision;
    const metric = observedNumber(result.observedMetrics, task.metricName);
    const accepted = result.status === VerificationStatus.Accepted && metric !== null;
    // A failed replay still comes back: R stops waiting for a leader that has no value on the new shard.
    const observed = accepted ? { raw: metric, perItem: result.perItem } : { raw: null };
    const outcome = await tx.rescore(task, { submissionId: decision.submissionId, exposureId, ...observed, scoredOn: decision.scoredOn });
    return this.verifications.insert(
      tx.manager,
      verificationRow(decision, metric, {
        release: outcome.release,
        releasedMetricValue: outcome.released,
        exposureId: outcome.exposureId,
        // Raw stays private while the shard it was scored on is in use; a task without a budget re-scores in the open.
        metricWithheld: outcome.withheld,
      }),
    );
  }

  /** The verification recorded, or null when the submission was already decided (nothing written). */
  async decide(tx: DecisionTransaction, decision: ValidatorDecision): Promise<VerificationEntity | null> {
    const { task, result } = decision;
    const metric = observedNumber(result.observedMetrics, task.metricName);
    const secondary = observedNumber(result.observedMetrics, task.secondaryMetricName);
    const verdict = verdictOf(decision.submissionId, result.status, metric, secondary);
    const submission = await tx.decideSubmission({ task, submissionId: decision.submissionId, verdict, scoredOn: decision.scoredOn, perItem: result.perItem });
    if (submission === null) return null;
    const release = tx.release;
    return this.verifications.insert(
      tx.manager,
      verificationRow(decision, metric, {
        release: release?.release ?? null,
        releasedMetricValue: release?.released ?? null,
        exposureId: release?.exposureId ?? null,
        // Under a held-out budget the raw metric stays with validators and admins until its shard retires (DECISIONS §17).
        metricWithheld: release !== null,
      }),
    );
  }
}

/** What a verification records of its release (DECISIONS §17); all null and not withheld for a task without a budget. */
type ReleaseColumns = Pick<NewVerification, 'release' | 'releasedMetricValue' | 'exposureId' | 'metricWithheld'>;

/** The verification row of a validator decision or re-score: the observed result, and what its release did. */
function verificationRow(decision: ValidatorDecision, metric: number | null, release: ReleaseColumns): NewVerification {
  const { task, result } = decision;
  return {
    submissionId: decision.submissionId,
    jobId: decision.jobId,
    taskId: task.id,
    validatorHotkey: decision.validatorHotkey,
    status: result.status,
    metricName: task.metricName,
    metricValue: metric,
    observedMetrics: result.observedMetrics,
    notes: result.notes,
    replayLog: result.replayLog,
    perItem: result.perItem ?? null,
    ...release,
  };
}

function verdictOf(submissionId: string, status: VerificationStatus, metric: number | null, secondary: number | null): Verdict {
  const decided = submissionStatusOf(status);
  // VerifyDto admits only verdicts; a pending "result" decides nothing.
  if (decided === SubmissionStatus.PendingVerification) throw new VerdictRequiredError(status);
  if (decided !== SubmissionStatus.Accepted) return { status: decided };
  if (metric === null) throw new AcceptedWithoutMetricError(submissionId);
  return { status: decided, metric, secondary };
}

/** A decision needs a verdict (accepted, rejected or error). */
export class VerdictRequiredError extends Error {
  constructor(readonly status: VerificationStatus) {
    super(`A validator decision needs a verdict, not "${status}"`);
    this.name = 'VerdictRequiredError';
  }
}
