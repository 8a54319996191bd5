import type { ValidationErrorItem } from '@rcs/contracts';
import { compileGlob } from './glob';
import { parsePatch, PatchParseError, type PatchFile } from './parse-patch';
import { isBytecodePath, normalisePatchPath } from './patch-path';

export type PatchViolationType = 'patch_path_not_allowed' | 'patch_too_large' | 'patch_bytecode' | 'patch_binary' | 'patch_unparseable';

export interface PatchViolation {
  type: PatchViolationType;
  msg: string;
  /** The offending path, for path, bytecode and binary violations. */
  path?: string;
  ctx?: Record<string, unknown>;
}

export interface PatchRules {
  /** The task's `allowed_patch_paths` globs; empty allows nothing. */
  allowedPatchPaths: string[];
  /** The task's `max_patch_bytes` (UTF-8 bytes). */
  maxPatchBytes: number;
}

export type PatchCheckResult = { ok: true; files: PatchFile[] } | { ok: false; violations: PatchViolation[]; files: PatchFile[] };

/**
 * The patch-surface rule (DECISIONS.md §5) that the coordinator applies before storing a patch and
 * the validator runner before `git apply`: size, then syntax, then every path on both sides of
 * every file. An empty patch passes with no files; whether one is required is the caller's rule.
 */
export function checkPatch(patch: string, rules: PatchRules): PatchCheckResult {
  const actualBytes = Buffer.byteLength(patch, 'utf8');
  if (actualBytes > rules.maxPatchBytes) {
    const msg = `The patch is ${actualBytes} bytes; the task allows at most ${rules.maxPatchBytes}.`;
    return { ok: false, violations: [{ type: 'patch_too_large', msg, ctx: { max_bytes: rules.maxPatchBytes, actual_bytes: actualBytes } }], files: [] };
  }

  let files: PatchFile[];
  try {
    files = parsePatch(patch);
  } catch (error) {
    if (!(error instanceof PatchParseError)) throw error;
    const msg = `The patch is not a unified git diff: ${error.reason} (line ${error.line}).`;
    return { ok: false, violations: [{ type: 'patch_unparseable', msg, ctx: { line: error.line, reason: error.reason } }], files: [] };
  }

  const allowed = rules.allowedPatchPaths.map(compileGlob);
  const violations = new Map<string, PatchViolation>();
  const report = (violation: PatchViolation): void => {
    const key = `${violation.type}\0${violation.path ?? ''}`;
    if (!violations.has(key)) violations.set(key, violation);
  };
  for (const file of files) {
    for (const path of new Set([file.oldPath, file.newPath])) {
      if (path !== null) checkPath(path, allowed, report);
    }
    if (file.binary) {
      const path = file.newPath ?? file.oldPath ?? '';
      report({ type: 'patch_binary', path, msg: `The patch carries binary content for "${path}"; binary changes are not allowed.`, ctx: { path } });
    }
  }
  return violations.size === 0 ? { ok: true, files } : { ok: false, violations: [...violations.values()], files };
}

function checkPath(raw: string, allowed: RegExp[], report: (violation: PatchViolation) => void): void {
  const normalised = normalisePatchPath(raw);
  if (!normalised.ok) {
    report({
      type: 'patch_path_not_allowed',
      path: raw,
      msg: `The patch touches "${raw}", which no patch may touch: ${normalised.reason}.`,
      ctx: { path: raw, reason: normalised.problem },
    });
    return;
  }
  const { path } = normalised;
  if (isBytecodePath(path)) {
    report({ type: 'patch_bytecode', path, msg: `The patch touches "${path}": Python bytecode (*.pyc, *.pyo, __pycache__/) is not allowed.`, ctx: { path } });
  }
  if (!allowed.some((pattern) => pattern.test(path))) {
    report({ type: 'patch_path_not_allowed', path, msg: `The patch touches "${path}", which matches none of the task's allowed_patch_paths.`, ctx: { path } });
  }
}

/** The 422 items for `POST /submissions` (DECISIONS.md §1): `loc` is the body's `patch`, `input` the offending path. */
export function patchViolationItems(violations: PatchViolation[]): ValidationErrorItem[] {
  return violations.map((violation) => ({
    type: violation.type,
    loc: ['body', 'patch'],
    msg: violation.msg,
    ...(violation.path === undefined ? {} : { input: violation.path }),
    ctx: violation.ctx ?? {},
  }));
}
