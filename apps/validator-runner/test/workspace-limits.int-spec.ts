import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statfsSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { ReplaySpecDto, VerificationStatus } from '@rcs/contracts';
import { REPO_ROOT, runValidatorRunner } from '@rcs/testing';
import { ValidatorJobToReplay, ReplayPipeline } from '../src/replay/replay-pipeline';
import { createSandbox } from '../src/sandbox/create-sandbox';
import { Sandbox, SandboxLimits } from '../src/sandbox/sandbox.port';
import { probeWorkspaceVolumes, removeTree, unmountUnder, WorkspaceFs } from '../src/sandbox/workspace-volume';
import { createBenchRepo, jobToReplay, localReplaySpec } from './bench-repo';
import { replayOptions } from './support/replay-options';

const MIB = 1024 * 1024;
const QUOTA = 32 * MIB;
const limits: SandboxLimits = { memoryBytes: 512 * MIB, pids: 64, cpus: 1, outputBytes: 64 * 1024, fileBytes: 8 * MIB, tmpBytes: 16 * MIB, shmBytes: 8 * MIB };
const TMPFS_MAGIC = 0x01021994;
const EXT4_MAGIC = 0xef53;
/** The unprivileged user the non-root tests run as (nobody). */
const NOBODY = 65534;
const privileged = process.getuid?.() === 0;
/** Without root, the test runs as an unprivileged runner already. */
const AS_NOBODY = privileged ? ['setpriv', `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', '--'] : [];

/** Bytes the directory tree takes on its own file system (`du -x`): what a benchmark cost the host disk. */
function hostDiskBytes(dir: string): number {
  return Number(execFileSync('du', ['-sxB1', dir], { encoding: 'utf8' }).split('\t')[0]);
}

function mountsUnder(dir: string): string[] {
  return readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .map((line) => line.split(' ')[4])
    .filter((point) => point !== undefined && point.startsWith(dir));
}

/** Writes 4 MiB files until one fails, then reports how many bytes landed. */
const FILL = 'i=0; while [ $i -lt 24 ]; do head -c 4194304 /dev/zero > fill$i || break; i=$((i+1)); done; echo "wrote $(cat fill* | wc -c)"; exit 1';
/** Locks a nested tree every way a benchmark can: no permission on files, read-only and closed directories. */
const LOCK =
  'mkdir -p locked/a/b && head -c 65536 /dev/zero > locked/a/b/data && chmod 000 locked/a/b/data && chmod 500 locked/a/b && chmod 000 locked/a && chmod 500 locked && echo \'{"loss": 1}\' > result.json && chmod 500 .';

describe('workspace quota, tmpfs sizes and clean-up (real mounts, real bubblewrap)', () => {
  let root: string;
  let sandbox: Sandbox;
  const warnings: string[] = [];
  const logger = { info: () => undefined, warn: (_obj: object, msg: string) => warnings.push(msg) };

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'runner-workspace-'));
    sandbox = createSandbox({ kind: 'bwrap', allowUnsafeNone: false, logger });
  });

  afterAll(() => {
    unmountUnder(root);
    rmSync(root, { recursive: true, force: true });
  });

  it('gives workspaces a disk quota by default: a loop-mounted ext4 image as root, and says so plainly where mounts are refused', () => {
    if (privileged) {
      expect(sandbox.enforcement.disk).toBe('ext4-loop');
      expect(warnings).toEqual([]);
    } else {
      expect(sandbox.enforcement.disk).toBe('none');
      expect(warnings).toContainEqual(expect.stringMatching(/cannot be enforced on this host/));
    }
  });

  const kinds: WorkspaceFs[] = ['ext4-loop', 'tmpfs'];
  it.each(kinds)('%s: a benchmark cannot write past the quota, and the host disk holds at most the quota', async (kind) => {
    if (!privileged) {
      expect(() => probeWorkspaceVolumes(kind as 'ext4-loop', logger)).toThrow(/does not work on this host/);
      return;
    }
    const base = join(root, `quota-${kind}`);
    mkdirSync(base);
    const volume = probeWorkspaceVolumes(kind, logger).create(join(base, 'repo'), QUOTA);
    try {
      const fs = statfsSync(volume.dir);
      expect(fs.type).toBe(kind === 'tmpfs' ? TMPFS_MAGIC : EXT4_MAGIC);
      expect(fs.blocks * fs.bsize).toBeLessThanOrEqual(QUOTA);
      expect(readdirSync(volume.dir)).toEqual([]);
      expect(await volume.full()).toBe(false);

      // 96 MiB attempted into a 32 MiB workspace.
      const result = await sandbox.run({ command: FILL, workspace: volume.dir, env: {}, timeoutMs: 20_000, limits });
      expect(result.output).toMatch(/No space left on device/);
      const wrote = Number(/wrote (\d+)/.exec(result.output)?.[1]);
      expect(wrote).toBeGreaterThan(QUOTA / 2);
      expect(wrote).toBeLessThanOrEqual(QUOTA);
      expect(await volume.full()).toBe(true);
      // The mount point's own file system (the host disk) took the image at most: never what the benchmark tried.
      expect(hostDiskBytes(base)).toBeLessThanOrEqual(QUOTA + MIB);
      if (kind === 'ext4-loop') expect(statSync(`${volume.dir}.img`).blocks * 512).toBeLessThanOrEqual(QUOTA);
    } finally {
      volume.release();
    }
    expect(mountsUnder(base)).toEqual([]);
    expect(readdirSync(base)).toEqual(['repo']);
    expect(readdirSync(join(base, 'repo'))).toEqual([]);
  }, 60_000);

  it('size-limits every tmpfs of the sandbox: /tmp and /dev/shm fill up at their size, /dev takes no files', async () => {
    const workspace = join(root, 'tmpfs');
    mkdirSync(workspace);
    const result = await sandbox.run({
      command: [
        'head -c 67108864 /dev/zero > /tmp/big; echo "tmp $(wc -c < /tmp/big)"',
        'head -c 67108864 /dev/zero > /dev/shm/big; echo "shm $(wc -c < /dev/shm/big)"',
        'echo x > /dev/file || echo dev-refused',
        'echo ok > /dev/null && echo null-ok',
        "df -B1 /tmp /dev/shm /dev | awk 'NR > 1 { print \"size\", $6, $2 }'",
      ].join('; '),
      workspace,
      env: {},
      timeoutMs: 10_000,
      limits: { ...limits, fileBytes: 128 * MIB },
    });
    expect(result.output).toMatch(/No space left on device/);
    expect(result.output).toContain(`tmp ${16 * MIB}\n`);
    expect(result.output).toContain(`shm ${8 * MIB}\n`);
    expect(result.output).toMatch(/Read-only file system/);
    expect(result.output).toContain('dev-refused');
    expect(result.output).toContain('null-ok');
    expect(result.output).toContain(`size /tmp ${16 * MIB}\n`);
    expect(result.output).toContain(`size /dev/shm ${8 * MIB}\n`);
    expect(readdirSync(workspace)).toEqual([]);
  }, 30_000);

  describe('through the replay pipeline', () => {
    let repo: string;
    let commit: string;
    let workDir: string;
    let pipeline: ReplayPipeline;

    beforeAll(() => {
      repo = join(root, 'origin');
      commit = createBenchRepo(repo);
      workDir = join(root, 'work');
      pipeline = new ReplayPipeline(
        replayOptions(root, { workDir, keepWorkspaces: false, limits, workspaceBytes: QUOTA }),
        sandbox,
        pino({ level: 'silent' }),
      );
    });

    function job(benchmark: string): ValidatorJobToReplay {
      return jobToReplay(localReplaySpec(repo, commit, { benchmark_command: benchmark }));
    }

    it('rejects a benchmark that fills its workspace, naming the quota, and leaves nothing behind', async () => {
      const result = await pipeline.replay(job(FILL));
      expect(result.status).toBe(VerificationStatus.Rejected);
      expect(result.notes).toBe(privileged ? 'The benchmark exited with code 1; it hit the workspace quota (32 MB).' : 'The benchmark exited with code 1.');
      expect(result.replayLog).toMatch(/No space left on device|File too large/);
      expect(readdirSync(workDir)).toEqual([]);
      expect(mountsUnder(workDir)).toEqual([]);
    }, 60_000);

    it('names the file size limit when a single file outgrows it', async () => {
      const result = await pipeline.replay(job('python3 -c "open(\'big\', \'wb\').write(b\'0\' * 16 * 1024 * 1024)"'));
      expect(result.status).toBe(VerificationStatus.Rejected);
      expect(result.notes).toBe('The benchmark exited with code 1; it hit the file size limit (8 MB).');
      expect(readdirSync(workDir)).toEqual([]);
    }, 60_000);

    it('removes a workspace whose benchmark locked its files and directories', async () => {
      const result = await pipeline.replay(job(LOCK));
      expect(result).toMatchObject({ status: VerificationStatus.Accepted, observedMetrics: { loss: 1 } });
      expect(readdirSync(workDir)).toEqual([]);
    }, 60_000);
  });

  describe('as a runner without privileges (uid nobody, no mounts, no CAP_DAC_OVERRIDE)', () => {
    let base: string;

    beforeAll(() => {
      base = join(root, 'unprivileged');
      mkdirSync(base);
      execFileSync('chmod', ['755', root]);
      // The runner's work directory belongs to the runner.
      if (privileged) chownSync(base, NOBODY, NOBODY);
    });

    /** Runs `argv` as nobody; the tree it works on belongs to nobody, as a runner's workspace belongs to the runner. */
    function asNobody(argv: string[]): { code: number; output: string } {
      try {
        const [command, ...args] = [...AS_NOBODY, ...argv];
        const output = execFileSync(command, args, { cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
        return { code: 0, output };
      } catch (error) {
        const failed = error as { status: number; stdout: string; stderr: string };
        return { code: failed.status, output: `${failed.stdout}${failed.stderr}` };
      }
    }

    it('removeTree deletes what plain rm -rf cannot: chmod 500 and 000 directories, files without permissions, nested', () => {
      for (const name of ['by-rm', 'by-remove-tree']) {
        expect(asNobody(['/bin/sh', '-c', `mkdir ${join(base, name)} && cd ${join(base, name)} && ${LOCK}`]).code).toBe(0);
      }
      const rm = asNobody(['rm', '-rf', join(base, 'by-rm')]);
      expect(rm.code).not.toBe(0);
      expect(rm.output).toMatch(/Permission denied/);
      expect(existsSync(join(base, 'by-rm', 'locked', 'a'))).toBe(true);

      const script = `require(${JSON.stringify(join(__dirname, '..', 'src', 'sandbox', 'workspace-volume'))}).removeTree(process.argv[1]).then(() => console.log('removed'))`;
      const removed = asNobody(['/usr/bin/env', 'HOME=/tmp', process.execPath, '-r', '@swc-node/register', '-e', script, join(base, 'by-remove-tree')]);
      expect(removed).toEqual({ code: 0, output: 'removed\n' });
      expect(existsSync(join(base, 'by-remove-tree'))).toBe(false);
      // The root runner's own clean-up path removes what nobody could not.
      return removeTree(join(base, 'by-rm'));
    }, 60_000);

    it('replays a job whose benchmark locks its workspace and removes it afterwards (the runner CLI run as nobody)', async () => {
      const origin = join(base, 'origin');
      const commit = createBenchRepo(origin);
      const work = join(base, 'work');
      mkdirSync(work);
      if (privileged) execFileSync('chown', ['-R', `${NOBODY}:${NOBODY}`, origin, work]);
      const jobFile = join(base, 'job.json');
      const jobId = randomUUID();
      writeFileSync(
        jobFile,
        JSON.stringify({
          job_id: jobId,
          submission_id: randomUUID(),
          replay_spec: { ...job(origin, commit, LOCK) },
        }),
      );
      const run = await runValidatorRunner(['replay', '--job-file', jobFile], { ALLOW_LOCAL_REPOSITORIES: 'true', RUNNER_WORK_DIR: work, HOME: '/tmp' }, AS_NOBODY);
      // Said plainly at boot: nobody may not mount, so the workspace has the file size limit only.
      expect(run.stderr).toContain('"disk":"none"');
      expect(run.stderr).toMatch(/workspaces get no disk quota on this host/);
      expect(run.code).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ status: 'accepted', observed_metrics: { loss: 1 } });
      expect(run.stderr).not.toContain('could not remove the workspace');
      expect(readdirSync(work)).toEqual([]);

      // A result file the benchmark made unreadable is a missing result (the output is read instead), not a validator failure.
      writeFileSync(jobFile, JSON.stringify({ job_id: randomUUID(), submission_id: randomUUID(), replay_spec: job(origin, commit, `${LOCK.replace(' && chmod 500 .', '')} && chmod 000 result.json && echo loss=2`) }));
      const unreadable = await runValidatorRunner(['replay', '--job-file', jobFile], { ALLOW_LOCAL_REPOSITORIES: 'true', RUNNER_WORK_DIR: work, HOME: '/tmp' }, AS_NOBODY);
      expect(unreadable.stderr).not.toContain('could not remove the workspace');
      expect(JSON.parse(unreadable.stdout)).toMatchObject({ status: 'accepted', observed_metrics: { loss: 2 }, notes: 'Observed loss=2 (from the output).' });
      expect(readdirSync(work)).toEqual([]);
    }, 120_000);

    function job(origin: string, commit: string, benchmark: string): ReplaySpecDto {
      return localReplaySpec(origin, commit, { benchmark_command: benchmark });
    }
  });
});
