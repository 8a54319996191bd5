export type PatchPathProblem =
  | 'empty'
  | 'nul'
  | 'backslash'
  | 'control_character'
  | 'too_long'
  | 'absolute'
  | 'trailing_slash'
  | 'dot_segment'
  | 'dot_dot_segment'
  | 'git_dir';

export type NormalisedPatchPath = { ok: true; path: string } | { ok: false; problem: PatchPathProblem; reason: string };

/** Linux PATH_MAX; longer names cannot exist in a checkout, and the bound keeps glob matching cheap. */
export const MAX_PATCH_PATH_LENGTH = 4096;

// eslint-disable-next-line no-control-regex -- control characters are exactly what this looks for
const CONTROL_CHARACTER = /[\u0001-\u001f\u007f]/;

/**
 * A path as `git apply` would use it (repeated slashes squashed), or why no patch may touch it.
 * git itself refuses `.`, `..` and `.git` components; the other rules keep a name from meaning
 * different files to different tools.
 */
export function normalisePatchPath(path: string): NormalisedPatchPath {
  const refuse = (problem: PatchPathProblem, reason: string): NormalisedPatchPath => ({ ok: false, problem, reason });
  if (path === '') return refuse('empty', 'the path is empty');
  if (path.includes('\0')) return refuse('nul', 'the path contains a NUL character');
  if (path.includes('\\')) return refuse('backslash', 'the path contains a backslash');
  if (CONTROL_CHARACTER.test(path)) return refuse('control_character', 'the path contains a control character');
  if (path.length > MAX_PATCH_PATH_LENGTH) return refuse('too_long', `the path is longer than ${MAX_PATCH_PATH_LENGTH} characters`);
  if (path.startsWith('/')) return refuse('absolute', 'the path is absolute');
  const normalised = path.replace(/\/{2,}/g, '/');
  const segments = normalised.split('/');
  if (segments[segments.length - 1] === '') return refuse('trailing_slash', 'the path ends with a slash');
  if (segments.includes('..')) return refuse('dot_dot_segment', 'the path contains a ".." segment');
  if (segments.includes('.')) return refuse('dot_segment', 'the path contains a "." segment');
  if (segments.some((segment) => segment.toLowerCase() === '.git')) return refuse('git_dir', 'the path contains a ".git" segment');
  return { ok: true, path: normalised };
}

/** Python bytecode: `*.pyc`, `*.pyo`, or anything under a `__pycache__` directory. */
export function isBytecodePath(path: string): boolean {
  return /\.py[co]$/i.test(path) || path.split('/').includes('__pycache__');
}
