import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type RequestListener } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { ReplayPipeline, type ReplayPipelineOptions } from '../../src/replay/replay-pipeline';
import { createSandbox } from '../../src/sandbox/create-sandbox';
import type { SandboxConfig } from '../../src/sandbox/sandbox.port';
import { unmountUnder } from '../../src/sandbox/workspace-volume';
import { createBenchRepo } from '../bench-repo';
import { replayOptions } from './replay-options';

/** What a replay suite replays against: the bench repository under a temporary root, a loopback server of the jobs' downloads, and the pipeline. */
export interface ReplayRig {
  root: string;
  /** The bench repository (`<root>/origin`) and its commit. */
  repo: string;
  commit: string;
  /** The loopback server's address. */
  baseUrl: string;
  pipeline: ReplayPipeline;
  /** Closes the server, unmounts the kept workspaces and removes the root. */
  stop(): Promise<void>;
}

/**
 * Starts a replay suite's bench: `serve` answers the jobs' downloads, the pipeline (`replayOptions`, allowed to fetch
 * from loopback, plus `options(baseUrl)`) runs them in the `sandbox` given.
 */
export async function startReplayRig(setup: {
  prefix: string;
  serve: RequestListener;
  sandbox: Pick<SandboxConfig, 'kind' | 'dockerImage'>;
  options?: (baseUrl: string) => Partial<ReplayPipelineOptions>;
}): Promise<ReplayRig> {
  const root = mkdtempSync(join(tmpdir(), setup.prefix));
  const repo = join(root, 'origin');
  const commit = createBenchRepo(repo);
  const server = createServer(setup.serve);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const logger = pino({ level: 'silent' });
  const pipeline = new ReplayPipeline(
    replayOptions(root, { fetch: { allowInsecureHttp: true, allowPrivateAddresses: true, allowLocalSources: true }, ...setup.options?.(baseUrl) }),
    createSandbox({ ...setup.sandbox, allowUnsafeNone: false, logger }),
    logger,
  );
  const stop = async (): Promise<void> => {
    await new Promise((resolve) => server.close(resolve));
    // Kept workspaces stay mounted (keepWorkspaces); a later replay of the same job, or this, unmounts them.
    unmountUnder(root);
    rmSync(root, { recursive: true, force: true });
  };
  return { root, repo, commit, baseUrl, pipeline, stop };
}
