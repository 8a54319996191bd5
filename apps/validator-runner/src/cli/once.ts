import type { Logger } from 'pino';
import type { SigningRunnerConfig } from '../config/config';
import { loadValidatorSigner } from '@rcs/auth';
import { JobProcessor, JobReport } from '../runner/job-processor';
import { createCoordinatorClient, createReplayPipeline } from '../runner/wiring';
import { detectAccelerators } from '../sandbox/accelerators';

/** `once`: one signed scan, every leased job replayed (RUNNER_CONCURRENCY at a time) and posted; true when all were recorded. */
export async function runOnce(config: SigningRunnerConfig, logger: Logger): Promise<boolean> {
  // Before anything else: a configured GPU that is missing stops the command (ConfigError).
  const accelerators = detectAccelerators(config.sandbox.gpus);
  const client = createCoordinatorClient(config, await loadValidatorSigner(config.identity), logger, accelerators);
  const processor = new JobProcessor(createReplayPipeline(config, logger, accelerators, client.heldoutSource()), client, logger);
  const jobs = await client.scan(config.scanLimit);
  logger.info({ phase: 'scan', hotkey: client.hotkey, jobs: jobs.map((job) => job.job_id) }, `scan: leased ${jobs.length} job(s)`);
  const queue = [...jobs];
  const reports: JobReport[] = [];
  const worker = async (): Promise<void> => {
    for (let job = queue.shift(); job !== undefined; job = queue.shift()) reports.push(await processor.process(job));
  };
  await Promise.all(Array.from({ length: Math.min(config.concurrency, jobs.length) }, worker));
  return reports.every((report) => report.posted === 'posted' || report.posted === 'already_recorded');
}
