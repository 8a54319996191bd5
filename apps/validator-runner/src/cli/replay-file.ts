import type { Logger } from 'pino';
import { ValidatorJobResultDto } from '@rcs/contracts';
import type { ValidatorRunnerConfig } from '../config/config';
import { toResultBody } from '../runner/job-processor';
import { createReplayPipeline } from '../runner/wiring';
import { detectAccelerators } from '../sandbox/accelerators';
import { readJobFile } from './job-file';

/** `replay --job-file F`: the result that would be posted for a saved job, without posting it. */
export async function replayJobFile(config: ValidatorRunnerConfig, path: string, logger: Logger): Promise<ValidatorJobResultDto> {
  const accelerators = detectAccelerators(config.sandbox.gpus);
  const job = await readJobFile(path);
  return toResultBody(job, await createReplayPipeline(config, logger, accelerators).replay(job));
}
