import type { Logger } from 'pino';
import { BtAuthSigner } from '@rcs/auth';
import type { ValidatorRunnerConfig } from '../config/config';
import { CoordinatorClient } from '../coordinator/coordinator.client';
import type { CoordinatorSource } from '../replay/heldout';
import { ReplayPipeline } from '../replay/replay-pipeline';
import { Accelerators } from '../sandbox/accelerators';
import { createSandbox } from '../sandbox/create-sandbox';

/**
 * The replay pipeline on the configured sandbox, with the GPUs found at start-up (the `none` driver refuses to exist
 * without its flag); `coordinator` lets it fetch the coordinator's held-out shards (CoordinatorClient.heldoutSource).
 */
export function createReplayPipeline(config: ValidatorRunnerConfig, logger: Logger, accelerators: Accelerators, coordinator?: CoordinatorSource): ReplayPipeline {
  const sandbox = createSandbox({
    kind: config.sandbox.kind,
    allowUnsafeNone: config.sandbox.allowUnsafeNone,
    dockerImage: config.sandbox.dockerImage ?? undefined,
    workspaceFs: config.sandbox.workspaceFs,
    gpus: accelerators,
    logger,
  });
  const { limits, workspaceBytes } = config.sandbox;
  logger.info(
    { sandbox: sandbox.kind, disk: sandbox.enforcement.disk, workspace_bytes: workspaceBytes, file_bytes: limits.fileBytes, tmp_bytes: limits.tmpBytes, shm_bytes: limits.shmBytes, memory_bytes: limits.memoryBytes },
    'sandbox limits',
  );
  return new ReplayPipeline(
    {
      workDir: config.workDir,
      keepWorkspaces: config.keepWorkspaces,
      gitEnv: config.gitEnv,
      fetch: config.fetch,
      artifactMaxBytes: config.artifactMaxBytes,
      heldoutMaxBytes: config.heldoutMaxBytes,
      hfRowsUrl: config.hfRowsUrl,
      resultMaxBytes: config.resultMaxBytes,
      logCapBytes: config.logCapBytes,
      limits: config.sandbox.limits,
      workspaceBytes: config.sandbox.workspaceBytes,
      coordinator,
    },
    sandbox,
    logger,
  );
}

/** The client, declaring the GPUs the sandbox exposes with every scan. */
export function createCoordinatorClient(config: ValidatorRunnerConfig, signer: BtAuthSigner, logger: Logger, accelerators: Accelerators): CoordinatorClient {
  return new CoordinatorClient(
    {
      baseUrl: config.coordinatorUrl,
      timeoutMs: config.httpTimeoutMs,
      postAttempts: config.postAttempts,
      postBackoffMs: config.postBackoffMs,
      capabilities: accelerators.capabilities,
    },
    signer,
    logger,
  );
}
