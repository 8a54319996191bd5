import { Inject, Injectable } from '@nestjs/common';
import { QueueName, ReplayJob, ReplayJobData } from '@rcs/contracts';
import { OnJob } from '@rcs/queue';
import { JobProcessor, JobReport } from './job-processor';

/** Runs each queued job (RUNNER_CONCURRENCY at once): replay, then post. */
@Injectable()
export class ReplayWorker {
  constructor(@Inject(JobProcessor) private readonly processor: JobProcessor) {}

  @OnJob({ queue: QueueName.Replay, name: ReplayJob.Replay })
  replay(data: ReplayJobData): Promise<JobReport> {
    return this.processor.process(data.job);
  }
}
