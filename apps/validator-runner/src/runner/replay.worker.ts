import { Inject, Injectable } from '@nestjs/common';
import { QueueName, ReplayJob, ReplayJobData } from '@rcs/contracts';
import { AppMetrics } from '@rcs/http';
import type { Counter, Histogram } from 'prom-client';
import { JobProcessor, JobReport } from './job-processor';
import { OnRunnerJob } from './runner-jobs';

/** Runs each queued job (RUNNER_CONCURRENCY at once): replay, then post; counted and timed by outcome. */
@Injectable()
export class ReplayWorker {
  private readonly replays: Counter<'outcome' | 'posted'>;
  private readonly durations: Histogram<'outcome'>;

  constructor(
    @Inject(JobProcessor) private readonly processor: JobProcessor,
    metrics: AppMetrics,
  ) {
    this.replays = metrics.counter({
      name: 'validator_replays_total',
      help: 'Replays run, by outcome (the replay status) and what became of the post.',
      labelNames: ['outcome', 'posted'],
    });
    this.durations = metrics.histogram({
      name: 'validator_replay_duration_seconds',
      help: 'Replay duration (download, sandbox, post), by outcome.',
      labelNames: ['outcome'],
      buckets: [1, 5, 15, 30, 60, 120, 300, 600, 1200, 3600, 7200],
    });
  }

  @OnRunnerJob(QueueName.Replay, ReplayJob.Replay)
  async replay(data: ReplayJobData): Promise<JobReport> {
    const started = performance.now();
    const report = await this.processor.process(data.job);
    this.replays.inc({ outcome: report.status, posted: report.posted });
    this.durations.observe({ outcome: report.status }, (performance.now() - started) / 1000);
    return report;
  }
}
