import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ApiError, ApiValidationError, ErrorCode, VerificationQueryDto, VerifyDto } from '@rcs/contracts';
import { DecisionService } from '../decisions/decisions.module';
import { SubmissionsRepository } from '../submissions/submissions.module';
import { isPeerEvaluated } from '../tasks/competition-modes';
import { VerificationEntity } from './entities/verification.entity';
import { resultViolations, toObservedResult } from './observed-result';
import { JobCompletionLostError, SubmissionDecider } from './submission-decider';
import { ValidatorJobsRepository } from './validator-jobs.repository';
import { VerificationsRepository } from './verifications.repository';

/** A standard or centerless submission without its validator job: the submission write that creates both was bypassed. */
export class MissingValidatorJobError extends Error {
  constructor(readonly submissionId: string) {
    super(`Submission ${submissionId} has no validator job`);
    this.name = 'MissingValidatorJobError';
  }
}

/** Manual verify, the verification list and the admin replay log (DECISIONS.md §6). */
@Injectable()
export class VerificationsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly jobs: ValidatorJobsRepository,
    private readonly decider: SubmissionDecider,
    private readonly decisions: DecisionService,
    private readonly verifications: VerificationsRepository,
    private readonly submissions: SubmissionsRepository,
  ) {}

  /**
   * An allowlisted validator's observed result for a pending submission, outside the lease flow: it
   * decides the submission and completes its job whatever the job's lease state, recording who verified.
   */
  async verify(validatorHotkey: string, submissionId: string, body: VerifyDto): Promise<VerificationEntity> {
    const { submission, task } = await this.submissions.findWithTask(this.dataSource.manager, submissionId);
    if (isPeerEvaluated(task.competitionMode)) {
      throw ApiError.conflict(
        ErrorCode.VerifyNotAllowedForPeerEvaluation,
        `Task ${task.slug} is decided by peer evaluation; use POST /api/v1/submissions/{id}/peer-evaluate.`,
        { submission_id: submission.id, task_id: task.id },
      );
    }
    const items = resultViolations(body, task);
    if (items.length > 0) throw new ApiValidationError(items);

    const result = toObservedResult(body);
    const verification = await this.decisions.transaction(async (tx) => {
      const lockedTask = await tx.lockTask(task.id);
      const job = await this.jobs.findForSubmission(tx.manager, submission.id);
      if (!job) throw new MissingValidatorJobError(submission.id);
      const recorded = await this.decider.decide(tx, { task: lockedTask, submissionId: submission.id, jobId: job.id, validatorHotkey, result, scoredOn: job.heldoutSha256 });
      if (recorded === null) return null;
      if (!(await this.jobs.completeForVerify(tx.manager, job.id, validatorHotkey))) throw new JobCompletionLostError(job.id);
      await tx.conclude();
      return recorded;
    });
    if (verification === null) {
      throw ApiError.conflict(ErrorCode.SubmissionAlreadyDecided, `Submission ${submission.id} was already decided.`, {
        submission_id: submission.id,
      });
    }
    return verification;
  }

  list(query: VerificationQueryDto): Promise<VerificationEntity[]> {
    return this.verifications.list(this.dataSource.manager, query);
  }

  /** The replay log of the submission's latest verification; 404 when there is none. */
  async replayLog(submissionId: string): Promise<string> {
    const submission = await this.submissions.findOrThrow(this.dataSource.manager, submissionId);
    const verification = await this.verifications.latest(this.dataSource.manager, submission.id);
    if (!verification || verification.replayLog === null) {
      throw ApiError.notFound(ErrorCode.ReplayLogNotFound, `Submission ${submission.id} has no replay log yet.`, {
        submission_id: submission.id,
      });
    }
    return verification.replayLog;
  }
}
