import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { suiteTempDir } from '@rcs/testing';
import { createSandbox } from '../src/sandbox/create-sandbox';
import { Sandbox, SandboxLimits } from '../src/sandbox/sandbox.port';

const limits: SandboxLimits = { memoryBytes: 512 * 1024 * 1024, pids: 64, cpus: 1, outputBytes: 4096 };

function processesWith(marker: string): string[] {
  return execFileSync('ps', ['-eo', 'args'], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(marker));
}

describe('unsafe "none" sandbox', () => {
  const unique = randomBytes(6).toString('hex');
  const warnings: string[] = [];
  const logger = { info: () => undefined, warn: (_obj: object, msg: string) => warnings.push(msg) };
  let workspace: string;

  suiteTempDir('rcs-sandbox-none-', (made) => (workspace = made));

  it('refuses to exist unless explicitly allowed', () => {
    expect(() => createSandbox({ kind: 'none', allowUnsafeNone: false, logger })).toThrow(expect.objectContaining({ code: 'unsafe-none-refused' }));
  });

  describe('when allowed', () => {
    let sandbox: Sandbox;

    beforeAll(() => {
      sandbox = createSandbox({ kind: 'none', allowUnsafeNone: true, logger });
    });

    it('warns loudly on creation and on every run', async () => {
      expect(warnings.filter((msg) => msg.startsWith('UNSAFE'))).toHaveLength(1);
      await sandbox.run({ command: 'true', workspace, env: {}, timeoutMs: 3000, limits });
      await sandbox.run({ command: 'true', workspace, env: {}, timeoutMs: 3000, limits });
      expect(warnings.filter((msg) => msg.startsWith('UNSAFE'))).toHaveLength(3);
    });

    it('runs in the workspace with exactly the given environment', async () => {
      process.env.RCS_SANDBOX_HOST_ONLY = `host-${unique}`;
      try {
        const result = await sandbox.run({ command: 'pwd; env', workspace, env: { BENCH_SEED: '7' }, timeoutMs: 3000, limits });
        const [pwd, ...envLines] = result.output.trim().split('\n');
        expect(pwd).toBe(workspace);
        expect(envLines.map((line) => line.split('=')[0]).sort()).toEqual(['BENCH_SEED', 'HOME', 'PATH', 'PWD']);
      } finally {
        delete process.env.RCS_SANDBOX_HOST_ONLY;
      }
    });

    it('kills the whole process group at the deadline', async () => {
      const marker = `rcs-none-deadline-${unique}`;
      const sleeper = `python3 -c "import time; time.sleep(1000)" ${marker}`;
      const result = await sandbox.run({ command: `${sleeper} & ${sleeper}`, workspace, env: {}, timeoutMs: 1000, limits });
      expect(result.timedOut).toBe(true);
      expect(result.durationMs).toBeLessThan(3000);
      expect(processesWith(marker)).toEqual([]);
    });

    it('settles when a daemon that left the process group holds the output open; its cgroup, if any, ends it', async () => {
      const marker = `rcs-none-daemon-${unique}`;
      const fifo = join(workspace, `daemon-started-${unique}`);
      execFileSync('mkfifo', [fifo]);
      // The benchmark exits only once the daemon has left its group (it reports through the fifo).
      const daemon = `setsid sh -c 'echo daemon $$; echo up > ${fifo}; exec python3 -c "import time; time.sleep(1000)" ${marker}' &`;
      const result = await sandbox.run({ command: `${daemon} read up < ${fifo}; echo started`, workspace, env: {}, timeoutMs: 3000, limits });
      const pid = Number(/daemon (\d+)/.exec(result.output)?.[1]);
      const survivors = processesWith(marker);
      try {
        expect(result).toMatchObject({ exitCode: 0, timedOut: false });
        expect(result.output).toMatch(/^daemon \d+\nstarted\n$/);
        expect(result.durationMs).toBeLessThan(3000);
        const usesCgroups = Object.values(sandbox.enforcement).includes('cgroup');
        expect(survivors).toHaveLength(usesCgroups ? 0 : 1);
      } finally {
        if (survivors.length > 0) process.kill(pid, 'SIGKILL');
      }
    });

    it('cannot pretend a host path is somewhere else', async () => {
      await expect(
        sandbox.run({ command: 'true', workspace, readOnlyPaths: [{ host: workspace, sandbox: '/data' }], env: {}, timeoutMs: 1000, limits }),
      ).rejects.toMatchObject({ code: 'invalid-request' });
    });
  });
});
