import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertValidRequest, sandboxEnv } from './sandbox-request';
import { SANDBOX_DEFAULT_PATH, SandboxError, SandboxRunRequest } from './sandbox.port';

describe('assertValidRequest', () => {
  let dir: string;
  let valid: SandboxRunRequest;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'rcs-sandbox-request-'));
    valid = { command: 'true', workspace: dir, env: { A: '1' }, timeoutMs: 1000, limits: { memoryBytes: 1 << 20, pids: 8, cpus: 1, outputBytes: 1024 } };
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  function problem(req: SandboxRunRequest): string {
    try {
      assertValidRequest(req);
    } catch (error) {
      expect(error).toBeInstanceOf(SandboxError);
      expect((error as SandboxError).code).toBe('invalid-request');
      return (error as Error).message;
    }
    return 'accepted';
  }

  it('accepts a well-formed request', () => {
    expect(problem(valid)).toBe('accepted');
  });

  it('refuses a relative, unnormalised or missing workspace', () => {
    expect(problem({ ...valid, workspace: 'jobs/j1' })).toMatch(/absolute path/);
    expect(problem({ ...valid, workspace: `${dir}/../x` })).toMatch(/absolute path/);
    expect(problem({ ...valid, workspace: '/' })).toMatch(/absolute path/);
    expect(problem({ ...valid, workspace: join(dir, 'missing') })).toMatch(/is not a directory/);
  });

  it('refuses a read-only path that does not exist or is relative', () => {
    expect(problem({ ...valid, readOnlyPaths: [{ host: join(dir, 'nope'), sandbox: '/data' }] })).toMatch(/does not exist/);
    expect(problem({ ...valid, readOnlyPaths: [{ host: dir, sandbox: 'data' }] })).toMatch(/absolute path/);
  });

  it('refuses invalid variable names, NUL bytes and nonsensical limits', () => {
    expect(problem({ ...valid, env: { 'A-B': '1' } })).toMatch(/not a valid name/);
    expect(problem({ ...valid, env: { A: 'x\0y' } })).toMatch(/NUL/);
    expect(problem({ ...valid, timeoutMs: 0 })).toMatch(/timeoutMs/);
    expect(problem({ ...valid, limits: { ...valid.limits, pids: 0 } })).toMatch(/pids/);
    expect(problem({ ...valid, limits: { ...valid.limits, memoryBytes: 1.5 } })).toMatch(/memoryBytes/);
    expect(problem({ ...valid, limits: { ...valid.limits, cpus: -1 } })).toMatch(/cpus/);
    expect(problem({ ...valid, limits: { ...valid.limits, outputBytes: 0 } })).toMatch(/outputBytes/);
    expect(problem({ ...valid, limits: { ...valid.limits, fileBytes: 0 } })).toMatch(/fileBytes/);
  });
});

describe('sandboxEnv', () => {
  it('adds PATH and HOME only when the request leaves them out', () => {
    expect(sandboxEnv({ A: '1' })).toEqual({ PATH: SANDBOX_DEFAULT_PATH, HOME: '/tmp', A: '1' });
    expect(sandboxEnv({ PATH: '/opt/bin', HOME: '/w/home' })).toEqual({ PATH: '/opt/bin', HOME: '/w/home' });
  });
});
