import type { Logger } from 'pino';
import { ValidatorJobDto, ValidatorJobResultDto, VerificationStatus } from '@rcs/contracts';
import { CoordinatorClient, FINAL_CONFLICTS, PostOutcome } from '../coordinator/coordinator.client';
import { ReplayPipeline, ReplayResult, ReplayStatus } from '../replay/replay-pipeline';

/** What became of one job, for logs, the BullMQ job's return value and `once`'s exit code. */
export interface JobReport {
  job_id: string;
  submission_id: string;
  status: ReplayStatus;
  posted: PostOutcome['kind'];
  timings: Record<string, number>;
}

/** The body posted for a replay: observed metrics only, the replay log redacted and capped. */
export function toResultBody(job: Pick<ValidatorJobDto, 'submission_id'>, result: ReplayResult): ValidatorJobResultDto {
  return {
    status: result.status,
    observed_metrics: result.observedMetrics,
    per_item: result.perItem ?? null,
    notes: result.notes,
    replay_log: result.replayLog,
    submission_id: job.submission_id,
  };
}

/** Replays one leased job and posts its result; one final log line per job with the outcome and phase timings. */
export class JobProcessor {
  constructor(
    private readonly pipeline: ReplayPipeline,
    private readonly client: CoordinatorClient,
    private readonly logger: Logger,
  ) {}

  async process(job: ValidatorJobDto): Promise<JobReport> {
    const logger = this.logger.child({ job_id: job.job_id, submission_id: job.submission_id });
    const result = await this.pipeline.replay(job);
    const started = Date.now();
    logger.info({ phase: 'post', status: result.status }, 'post: started');
    const post = await this.client.postResult(job.job_id, toResultBody(job, result));
    const timings = { ...result.timings, post: Date.now() - started };
    this.logPost(logger, post, timings.post);
    // An error or a rejection says why where operators look first; the notes are public and already redacted.
    const reason = result.status === VerificationStatus.Accepted ? undefined : result.notes;
    logger[result.status === VerificationStatus.Error ? 'warn' : 'info'](
      { outcome: result.status, posted: post.kind, reason, observed_metrics: result.observedMetrics, timings },
      `job finished: ${result.status}, ${post.kind}${reason === undefined ? '' : ` (${reason})`}`,
    );
    return { job_id: job.job_id, submission_id: job.submission_id, status: result.status, posted: post.kind, timings };
  }

  private logPost(logger: Logger, post: PostOutcome, ms: number): void {
    switch (post.kind) {
      case 'posted':
      case 'already_recorded':
        logger.info({ phase: 'post', ms, attempts: post.attempts, verification_id: post.verification.id }, `post: ${post.kind}`);
        return;
      case 'refused': {
        // A lost lease or a result already recorded ends the job for this validator; anything else is a bug to look at.
        const level = FINAL_CONFLICTS.includes(post.code ?? '') ? 'warn' : 'error';
        logger[level]({ phase: 'post', ms, status: post.status, code: post.code, attempts: post.attempts }, `post: refused (${post.message})`);
        return;
      }
      case 'gave_up':
        logger.error({ phase: 'post', ms, attempts: post.attempts, reason: post.reason }, 'post: gave up');
        return;
    }
  }
}
