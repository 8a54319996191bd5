import { suiteTempDir } from '@rcs/testing';
import { createSandbox } from '../src/sandbox/create-sandbox';
import { SandboxError } from '../src/sandbox/sandbox.port';

const logger = { info: () => undefined, warn: () => undefined };

describe('docker sandbox without a usable Docker engine', () => {
  let workspace: string;

  suiteTempDir('rcs-sandbox-docker-', (made) => (workspace = made));

  it('refuses to be created without an image', () => {
    expect(() => createSandbox({ kind: 'docker', allowUnsafeNone: false, logger })).toThrow(
      expect.objectContaining({ code: 'misconfigured', message: 'sandbox "docker" needs an image' }),
    );
  });

  it('rejects the run with a start failure that says why, instead of reporting a benchmark result', async () => {
    const sandbox = createSandbox({ kind: 'docker', allowUnsafeNone: false, dockerImage: 'rcs-sandbox-test-absent:none', logger });
    expect(sandbox.enforcement).toEqual({ memory: 'docker', pids: 'docker', cpus: 'docker', disk: sandbox.workspaces.kind });
    const run = sandbox.run({
      command: 'echo never',
      workspace,
      env: { BENCH_TOKEN: 'private-value' },
      timeoutMs: 3000,
      limits: { memoryBytes: 256 * 1024 * 1024, pids: 32, cpus: 1, outputBytes: 4096 },
    });
    await expect(run).rejects.toBeInstanceOf(SandboxError);
    await expect(run).rejects.toMatchObject({ code: 'start-failed', message: expect.stringMatching(/^(docker could not start the sandbox container: |could not start docker: )\S/) });
  });
});
