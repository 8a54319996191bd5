import { Inject, Injectable } from '@nestjs/common';
import { ApiError, ErrorCode, PlannerJob, PlannerRunResponseDto, QueueName } from '@rcs/contracts';
import { JobQueue, JobTimeoutError } from '@rcs/queue';
import { CoordinatorConfig } from '../config/config';
import { COORDINATOR_CONFIG } from '../config/config.module';
import { CoordinatorJobs } from '../jobs/coordinator-jobs';

/** The planner routes: enqueue a run and wait for its result (DECISIONS.md §4). */
@Injectable()
export class PlannerService {
  constructor(
    private readonly jobs: JobQueue<CoordinatorJobs>,
    @Inject(COORDINATOR_CONFIG) private readonly config: CoordinatorConfig,
  ) {}

  run(): Promise<PlannerRunResponseDto> {
    return this.waitFor(() => this.jobs.runAndWait(QueueName.Planner, PlannerJob.Run, {}, this.timeoutMs()));
  }

  /** 503 when no LLM endpoint is configured (checked before anything is queued); 502 when the LLM failed. */
  async runAgentic(): Promise<PlannerRunResponseDto> {
    if (this.config.plannerLlm === null) {
      throw ApiError.unavailable(
        ErrorCode.AgenticPlannerUnconfigured,
        'The agentic planner is not configured: set PLANNER_LLM_BASE_URL and PLANNER_LLM_MODEL.',
      );
    }
    const result = await this.waitFor(() => this.jobs.runAndWait(QueueName.Planner, PlannerJob.RunAgentic, {}, this.timeoutMs()));
    switch (result.outcome) {
      case 'created':
        return { created: result.created };
      case 'llm_failed':
        throw new ApiError(ErrorCode.PlannerLlmFailed, `The planner LLM gave no usable answer, so nothing was stored: ${result.reason}.`, {
          reason: result.reason,
        });
    }
  }

  private timeoutMs(): number {
    return this.config.plannerRunTimeoutSeconds * 1000;
  }

  private async waitFor<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (!(error instanceof JobTimeoutError)) throw error;
      throw new ApiError(
        ErrorCode.PlannerTimeout,
        `The planner run did not finish within ${this.config.plannerRunTimeoutSeconds} s; it may still finish, so list work items later.`,
        { job_id: error.jobId ?? null },
      );
    }
  }
}
