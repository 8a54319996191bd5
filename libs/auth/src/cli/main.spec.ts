import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { loadVectors, VECTORS_FILE } from '../../test/vectors';

const REPO_ROOT = resolve(__dirname, '../../../..');
const run = promisify(execFile);

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

async function cli(...args: string[]): Promise<Outcome> {
  const argv = ['-r', '@swc-node/register', 'libs/auth/src/cli/main.ts', ...args];
  try {
    const { stdout, stderr } = await run(process.execPath, argv, { cwd: REPO_ROOT });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('auth CLI', () => {
  const dir = mkdtempSync(join(tmpdir(), 'auth-cli-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reproduces every vector from its inputs', async () => {
    const { code, stdout } = await cli('message', '--vectors', VECTORS_FILE);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, string>);
    expect(lines).toEqual(
      loadVectors().map((v) => ({
        name: v.name,
        canonical_body: v.canonical_body,
        body_sha256: v.body_sha256,
        message: v.message,
      })),
    );
  });

  it('prints the labelled canonical body, sha256 and message of one request', async () => {
    const [vector] = loadVectors().filter((v) => v.raw_body !== null);
    const bodyFile = join(dir, 'body.json');
    writeFileSync(bodyFile, vector.raw_body ?? '');
    const { code, stdout } = await cli(
      'message',
      '--method', vector.method,
      '--path', vector.path,
      '--query', vector.query,
      '--timestamp', vector.timestamp,
      '--body-file', bodyFile,
    );
    expect(code).toBe(0);
    expect(stdout).toBe(
      `canonical_body: ${JSON.stringify(vector.canonical_body)}\nbody_sha256: ${vector.body_sha256}\nmessage: ${JSON.stringify(vector.message)}\n`,
    );
  });

  it('treats a request without --body-file as bodiless', async () => {
    const { code, stdout } = await cli('message', '--method', 'get', '--path', '/x', '--query', 'a=1', '--timestamp', '5');
    expect(code).toBe(0);
    expect(stdout).toContain(`message: ${JSON.stringify('BT-AUTH-V1\nGET\n/x\na=1\n5\ne3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855')}`);
  });

  it('prints help', async () => {
    const { code, stdout } = await cli('--help');
    expect(code).toBe(0);
    expect(stdout).toContain('message --method M --path P');
  });

  it.each([
    ['no command', []],
    ['an unknown flag', ['message', '--bogus']],
    ['missing flags', ['message', '--method', 'POST']],
    ['a query in --path', ['message', '--method', 'GET', '--path', '/x?a=1', '--timestamp', '1']],
  ])('exits 2 on bad usage: %s', async (_what, args) => {
    const { code, stderr } = await cli(...args);
    expect(code).toBe(2);
    expect(stderr).toMatch(/^auth: /);
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('exits 1 on a body that is not JSON or a file that cannot be read', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"a": }');
    for (const file of [bad, join(dir, 'missing.json')]) {
      const { code, stderr } = await cli('message', '--method', 'POST', '--path', '/x', '--timestamp', '1', '--body-file', file);
      expect(code).toBe(1);
      expect(stderr).not.toMatch(/\n\s+at /);
    }
  });
});
