import { statSync } from 'node:fs';
import { isAbsolute, normalize } from 'node:path';
import { SANDBOX_DEFAULT_PATH, SandboxError, SandboxRunRequest } from './sandbox.port';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Refuses a request no driver can honour faithfully, before anything is started. */
export function assertValidRequest(req: SandboxRunRequest): void {
  assertDirectory(req.workspace, 'workspace');
  for (const mount of req.readOnlyPaths ?? []) {
    assertAbsolute(mount.host, 'read-only host path');
    assertAbsolute(mount.sandbox, 'read-only sandbox path');
    if (!statOrNull(mount.host)) throw invalid(`read-only path ${mount.host} does not exist`);
  }
  for (const [name, value] of Object.entries(req.env)) {
    if (!ENV_NAME.test(name)) throw invalid(`environment variable name "${name}" is not a valid name`);
    if (value.includes('\0')) throw invalid(`environment variable ${name} contains a NUL byte`);
  }
  const { memoryBytes, pids, cpus, outputBytes, fileBytes } = req.limits;
  if (!(req.timeoutMs > 0)) throw invalid('timeoutMs must be positive');
  if (!Number.isSafeInteger(memoryBytes) || memoryBytes <= 0) throw invalid('limits.memoryBytes must be a positive integer');
  if (!Number.isSafeInteger(pids) || pids <= 0) throw invalid('limits.pids must be a positive integer');
  if (!(cpus > 0)) throw invalid('limits.cpus must be positive');
  if (!Number.isSafeInteger(outputBytes) || outputBytes <= 0) throw invalid('limits.outputBytes must be a positive integer');
  if (fileBytes !== undefined && (!Number.isSafeInteger(fileBytes) || fileBytes <= 0)) throw invalid('limits.fileBytes must be a positive integer');
}

/** The environment the command sees: the request's, plus PATH and HOME when it left them out. */
export function sandboxEnv(env: Record<string, string>): Record<string, string> {
  return { PATH: SANDBOX_DEFAULT_PATH, HOME: '/tmp', ...env };
}

function assertDirectory(path: string, what: string): void {
  assertAbsolute(path, what);
  if (!statOrNull(path)?.isDirectory()) throw invalid(`${what} ${path} is not a directory`);
}

function assertAbsolute(path: string, what: string): void {
  if (!isAbsolute(path) || normalize(path) !== path || path.endsWith('/')) {
    throw invalid(`${what} must be a normalised absolute path other than / (got "${path}")`);
  }
}

function statOrNull(path: string): ReturnType<typeof statSync> | null {
  return statSync(path, { throwIfNoEntry: false }) ?? null;
}

function invalid(message: string): SandboxError {
  return new SandboxError('invalid-request', message);
}
