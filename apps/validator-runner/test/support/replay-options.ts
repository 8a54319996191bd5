import { join } from 'node:path';
import type { ReplayPipelineOptions } from '../../src/replay/replay-pipeline';

/**
 * The pipeline options the replay tests start from: a work directory under `root` whose workspaces are
 * kept for inspection, 1 MiB downloads and results, a 128 MiB workspace, and public-internet fetch rules
 * (only local sources allowed besides). `overrides` replaces whole fields.
 */
export function replayOptions(root: string, overrides: Partial<ReplayPipelineOptions> = {}): ReplayPipelineOptions {
  return {
    workDir: join(root, 'work'),
    keepWorkspaces: true,
    gitEnv: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root },
    fetch: { allowInsecureHttp: false, allowPrivateAddresses: false, allowLocalSources: true },
    artifactMaxBytes: 1 << 20,
    heldoutMaxBytes: 1 << 20,
    resultMaxBytes: 1 << 20,
    logCapBytes: 64 * 1024,
    limits: { memoryBytes: 1 << 30, pids: 128, cpus: 1, outputBytes: 1 << 20, fileBytes: 1 << 26 },
    workspaceBytes: 1 << 27,
    ...overrides,
  };
}
