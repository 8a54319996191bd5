import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { mnemonicGenerate } from '@polkadot/util-crypto';
import { keypairFromUri } from '@rcs/auth';
import { benchTaskBody, childProcessBaseEnv, startCoordinatorProcess, suiteTempDir, type RunningCoordinator } from '@rcs/testing';
import { EXIT } from '../src/errors';
import { rcs, type CliRun } from './support/run-cli';

const ROOT = resolve(__dirname, '..', '..', '..');

interface PackedManifest {
  name: string;
  version: string;
  bin: Record<string, string>;
  engines: Record<string, string>;
  dependencies: Record<string, string>;
}

/**
 * The installable CLI: `npx nx build cli`'s bundle, packed with `npm pack`, unpacked outside the
 * repository as `npm install -g` lays it out (lib/node_modules/@rcs/cli, bin/rcs linked to it), with a
 * node_modules holding only its declared dependencies — and run against the coordinator's real process.
 */
describe('the packed rcs, installed outside the repository', () => {
  let dir = '';
  suiteTempDir('rcs-pack-', (path) => (dir = path));
  let tarball = '';
  let entries: string[] = [];
  let packageDir = '';
  let bin = '';
  let manifest: PackedManifest;
  let coordinator: RunningCoordinator;
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    const outDir = join(dir, 'dist');
    // The build target's own code (tools/build/main.ts cli writes the same into dist/apps/cli).
    execFileSync(process.execPath, ['-r', '@swc-node/register', '-e', "require('./tools/build/cli-bundle').bundleCli(process.argv[1])", outDir], {
      cwd: ROOT,
      env: childProcessBaseEnv(),
      stdio: 'pipe',
    });
    const packed = JSON.parse(execFileSync('npm', ['pack', outDir, '--json', '--pack-destination', dir], { cwd: dir, env: childProcessBaseEnv(), encoding: 'utf8' })) as [
      { filename: string },
    ];
    tarball = join(dir, packed[0].filename);
    entries = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n').sort();

    const prefix = join(dir, 'prefix');
    packageDir = join(prefix, 'lib', 'node_modules', '@rcs', 'cli');
    mkdirSync(packageDir, { recursive: true });
    execFileSync('tar', ['-xzf', tarball, '-C', packageDir, '--strip-components=1']);
    manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as PackedManifest;
    // What npm would install: each declared dependency (linked; Node resolves a link's own dependencies from its real path).
    for (const name of Object.keys(manifest.dependencies)) {
      const link = join(packageDir, 'node_modules', name);
      mkdirSync(dirname(link), { recursive: true });
      symlinkSync(realpathSync(join(ROOT, 'node_modules', name)), link, 'dir');
    }
    mkdirSync(join(prefix, 'bin'));
    bin = join(prefix, 'bin', 'rcs');
    symlinkSync(join('..', 'lib', 'node_modules', '@rcs', 'cli', manifest.bin['rcs'] as string), bin);

    const validatorUri = mnemonicGenerate();
    coordinator = await startCoordinatorProcess({ validatorHotkey: (await keypairFromUri(validatorUri)).address, database: 'cli_pack' });
    env = { HOME: join(dir, 'home'), RCS_COORDINATOR_URL: coordinator.url, RCS_ADMIN_TOKEN: coordinator.adminToken, RCS_KEY_URI: mnemonicGenerate() };
  }, 180_000);

  afterAll(async () => {
    await coordinator?.stop();
  });

  /** The installed `rcs` as a shell runs it: its shebang, `node` from PATH, the working directory outside the repository. */
  function packedRcs(args: string[], extra: NodeJS.ProcessEnv = env): Promise<CliRun> {
    const path = `${dirname(process.execPath)}:/usr/bin:/bin`;
    return new Promise((done) => {
      execFile(bin, args, { cwd: dir, env: { PATH: path, ...extra } }, (error, stdout, stderr) =>
        done({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr }),
      );
    });
  }

  it('holds one bundled JavaScript bin, its package.json and README: no TypeScript, nothing of this machine', () => {
    expect(entries).toEqual(['package/README.md', 'package/bin/rcs.js', 'package/package.json']);
    const code = readFileSync(join(packageDir, 'bin', 'rcs.js'), 'utf8');
    // (`validator run` in a checkout names @swc-node/register for the runner's process; the bin never loads it.)
    expect(code.startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect({ rcsAlias: /require\(["']@rcs\//.test(code), swcNode: /require\(["']@swc-node/.test(code), typescript: /require\(["'][^"']*\.ts["']\)/.test(code) }).toEqual({
      rcsAlias: false,
      swcNode: false,
      typescript: false,
    });
    const machinePaths = [ROOT, realpathSync(ROOT), dirname(realpathSync(join(ROOT, 'node_modules'))), dir];
    for (const entry of entries) {
      const text = readFileSync(join(packageDir, entry.replace(/^package\//, '')), 'utf8');
      expect({ entry, found: machinePaths.filter((path) => text.includes(path)) }).toEqual({ entry, found: [] });
    }
  });

  it('declares exactly the npm packages the bin requires, at the versions of package-lock.json, and the source manifest\'s name and version', () => {
    const code = readFileSync(join(packageDir, 'bin', 'rcs.js'), 'utf8');
    const required = new Set<string>();
    // `require` at start, `import()` where a command loads a package only when it runs (rcs mcp and the MCP SDK).
    for (const [, id] of code.matchAll(/(?:require|import)\(["']([^"'.][^"']*)["']\)/g)) {
      if (id === undefined || id.startsWith('node:')) continue;
      required.add(id.split('/').slice(0, id.startsWith('@') ? 2 : 1).join('/'));
    }
    expect(Object.keys(manifest.dependencies).sort()).toEqual([...required].sort());
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version: string }> };
    for (const [name, version] of Object.entries(manifest.dependencies)) expect({ name, version }).toEqual({ name, version: lock.packages[`node_modules/${name}`]?.version });
    const source = JSON.parse(readFileSync(join(ROOT, 'apps', 'cli', 'package.json'), 'utf8')) as PackedManifest;
    expect(manifest).toMatchObject({ name: source.name, version: source.version, bin: { rcs: 'bin/rcs.js' }, engines: { node: '>=20' } });
  });

  it('rcs --help lists every command the checkout\'s rcs lists; --version is the package\'s version', async () => {
    const commands = (help: string) => [...help.matchAll(/^ {2}rcs (\S+)/gm)].map((match) => match[1]);
    const packed = await packedRcs(['--help']);
    expect(packed).toMatchObject({ code: EXIT.ok, stderr: '' });
    const checkout = await rcs(['--help'], env);
    expect(commands(checkout.stdout)).toHaveLength(16);
    expect(commands(packed.stdout)).toEqual(commands(checkout.stdout));
    expect(await packedRcs(['--version'])).toEqual({ code: EXIT.ok, stdout: `${manifest.version}\n`, stderr: '' });
    expect(await packedRcs(['no-such-command'])).toMatchObject({ code: EXIT.usage, stderr: expect.stringContaining('Unknown argument') });
  });

  it('creates a task, lists it with exactly the JSON the checkout\'s rcs prints, and claims it with a signed request', async () => {
    const file = join(dir, 'task.json');
    writeFileSync(file, JSON.stringify(benchTaskBody('https://example.invalid/bench.git', 'a'.repeat(40))));
    const created = await packedRcs(['admin', 'task', 'create', '--file', file, '--json']);
    expect(created).toMatchObject({ code: EXIT.ok, stderr: '' });
    const taskId = (JSON.parse(created.stdout) as { id: string }).id;

    const tasks = await packedRcs(['tasks', '--json']);
    expect(tasks).toMatchObject({ code: EXIT.ok, stderr: '' });
    expect(tasks.stdout).toBe((await rcs(['tasks', '--json'], env)).stdout);
    expect(JSON.stringify(JSON.parse(tasks.stdout))).toContain(taskId);

    const claim = await packedRcs(['claim', taskId, '--json']);
    expect(claim).toMatchObject({ code: EXIT.ok });
    expect(JSON.parse(claim.stdout)).toMatchObject({ task_id: taskId });
    expect(await packedRcs(['claim', taskId])).toMatchObject({ code: EXIT.refused, stderr: expect.stringContaining('duplicate_active_claim') });
    // Five packed runs, each a Node process loading the bundle (seconds apiece on a busy machine).
  }, 120_000);

  it('rcs mcp serves its tools through the SDK as installed (the bundle requires the SDK package by its own exports)', async () => {
    const transport = new StdioClientTransport({
      command: bin,
      args: ['mcp'],
      cwd: dir,
      env: { PATH: `${dirname(process.execPath)}:/usr/bin:/bin`, ...(env as Record<string, string>) },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'pack-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('submit');
      const listed = await client.callTool({ name: 'list_tasks', arguments: { state: 'live' } });
      expect(listed.isError).toBeFalsy();
      expect(Array.isArray(JSON.parse((listed.content as { text: string }[])[0]?.text ?? 'null'))).toBe(true);
    } finally {
      await client.close();
    }
  }, 120_000);

  it('answers exit 3 when the coordinator does not answer', async () => {
    expect(await packedRcs(['tasks', '--url', 'http://127.0.0.1:9'])).toMatchObject({ code: EXIT.unreachable, stderr: expect.stringContaining('rcs: unreachable:') });
  });

  it.each([['run'], ['once'], ['replay', '--job-file', 'job.json']])('validator %s refuses (exit 2): the runner is not part of the package', async (...args: string[]) => {
    expect(await packedRcs(['validator', ...args])).toEqual({
      code: EXIT.usage,
      stdout: '',
      stderr: expect.stringMatching(new RegExp(`^rcs: validator ${args[0] as string} runs the validator runner from a repository checkout, .*\\n$`)) as unknown as string,
    });
  });
});
