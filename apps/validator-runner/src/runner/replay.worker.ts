import { Inject, Injectable } from '@nestjs/common';
import { QueueName, ReplayJob, ReplayJobData } from '@rcs/contracts';
import { JobProcessor, JobReport } from './job-processor';
import { OnRunnerJob } from './runner-jobs';

/** Runs each queued job (RUNNER_CONCURRENCY at once): replay, then post. */
@Injectable()
export class ReplayWorker {
  constructor(@Inject(JobProcessor) private readonly processor: JobProcessor) {}

  @OnRunnerJob(QueueName.Replay, ReplayJob.Replay)
  replay(data: ReplayJobData): Promise<JobReport> {
    return this.processor.process(data.job);
  }
}
