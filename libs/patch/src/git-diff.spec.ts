import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { devNull, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { checkPatch, type PatchCheckResult } from './check-patch';
import type { PatchFile } from './parse-patch';

// Real `git diff --binary` output from a throwaway repository; `git apply` in a fresh clone then
// shows that git and the parser agree on every file the patch touches.

const GIT_ENV = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: devNull, LC_ALL: 'C' };

function git(cwd: string, args: string[], input?: string): string {
  return execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'core.quotepath=true', ...args], {
    cwd,
    env: GIT_ENV,
    input,
    encoding: 'utf8',
    stdio: 'pipe',
    maxBuffer: 64 * 1024 * 1024,
  });
}

const lines = (prefix: string, count: number): string => Array.from({ length: count }, (_, i) => `${prefix} line ${i + 1}\n`).join('');

const BASE_FILES: Record<string, string> = {
  'src/model.py': lines('model', 20),
  'src/util.py': lines('util', 20),
  'secret/key.py': lines('key', 5),
  'run.sh': 'echo run\n',
  'README.md': '# demo\n',
};

const rules = { allowedPatchPaths: ['src/**', 'lib/**', 'run.sh'], maxPatchBytes: 262144 };

/** What a patch touches: per-file counts as `git apply --numstat` gives them, and every path whose content or mode changes. */
interface TouchedView {
  numstat: { additions: number | 'binary'; deletions: number | 'binary'; path: string }[];
  changed: string[];
}

class Sandbox {
  readonly root = mkdtempSync(join(tmpdir(), 'rcs-patch-'));
  readonly repo = join(this.root, 'repo');
  private clones = 0;

  constructor() {
    mkdirSync(this.repo);
    git(this.repo, ['init', '-q', '-b', 'main']);
    this.write(BASE_FILES);
    git(this.repo, ['add', '-A']);
    git(this.repo, ['commit', '-q', '-m', 'base']);
  }

  write(files: Record<string, string | Buffer>): void {
    for (const [path, content] of Object.entries(files)) {
      mkdirSync(dirname(join(this.repo, path)), { recursive: true });
      writeFileSync(join(this.repo, path), content);
    }
  }

  git(...args: string[]): string {
    return git(this.repo, args);
  }

  /** `git add -A` then `git diff --binary --cached`, with any extra diff options. */
  staged(...options: string[]): string {
    this.git('add', '-A');
    return this.git('diff', '--binary', '--cached', ...options);
  }

  /** Checks and applies the patch in a fresh clone of the base commit, and reads back what git changed. */
  gitView(patch: string): TouchedView {
    const clone = join(this.root, `clone-${++this.clones}`);
    git(this.root, ['clone', '-q', this.repo, clone]);
    git(clone, ['apply', '--check', '-'], patch);
    const numstat = git(clone, ['apply', '--numstat', '-z', '-'], patch)
      .split('\0')
      .filter((entry) => entry !== '')
      .map((entry) => {
        const [additions, deletions, path] = entry.split('\t');
        const count = (n: string): number | 'binary' => (n === '-' ? 'binary' : Number(n));
        return { additions: count(additions), deletions: count(deletions), path };
      });
    git(clone, ['apply', '--index', '-'], patch);
    // Without rename detection a rename reads as a deletion plus a creation: both paths show.
    const nameStatus = git(clone, ['diff', '--cached', '--name-status', '--no-renames', '-z']).split('\0');
    const changed = nameStatus.filter((_, i) => i % 2 === 1).sort();
    return { numstat, changed };
  }
}

/** The same view from the parser; a copy reads its source but does not change it. */
function parserView(files: PatchFile[]): TouchedView {
  const changed = files.flatMap((file) => (file.status === 'copied' ? [file.newPath] : [file.oldPath, file.newPath]));
  return {
    numstat: files.map((file) => ({
      additions: file.binary ? 'binary' : file.additions,
      deletions: file.binary ? 'binary' : file.deletions,
      path: file.newPath ?? file.oldPath ?? '',
    })),
    changed: [...new Set(changed.filter((path): path is string => path !== null))].sort(),
  };
}

function expectGitAgrees(sandbox: Sandbox, patch: string, result: PatchCheckResult): void {
  expect(result.files.length).toBeGreaterThan(0);
  expect(parserView(result.files)).toEqual(sandbox.gitView(patch));
}

function violationsOf(result: PatchCheckResult): [string, string | undefined][] {
  return result.ok ? [] : result.violations.map((v) => [v.type, v.path]);
}

describe('checkPatch on real git diffs', () => {
  let sandbox: Sandbox;

  beforeEach(() => {
    sandbox = new Sandbox();
  });

  afterEach(() => {
    rmSync(sandbox.root, { recursive: true, force: true });
  });

  it('accepts a modification', () => {
    sandbox.write({ 'src/model.py': lines('model', 20).replace('model line 7\n', 'model line seven\n') });
    const patch = sandbox.git('diff', '--binary');
    const result = checkPatch(patch, rules);
    expect(result).toEqual({ ok: true, files: [{ oldPath: 'src/model.py', newPath: 'src/model.py', status: 'modified', binary: false, hunks: 1, additions: 1, deletions: 1 }] });
    expectGitAgrees(sandbox, patch, result);
  });

  it('accepts a creation staged with git add', () => {
    sandbox.write({ 'src/new/feature.py': lines('feature', 3) });
    const patch = sandbox.staged();
    const result = checkPatch(patch, rules);
    expect(result).toMatchObject({ ok: true, files: [{ oldPath: null, newPath: 'src/new/feature.py', status: 'added', additions: 3 }] });
    expectGitAgrees(sandbox, patch, result);
  });

  it('accepts a deletion', () => {
    unlinkSync(join(sandbox.repo, 'src/util.py'));
    const patch = sandbox.git('diff', '--binary');
    const result = checkPatch(patch, rules);
    expect(result).toMatchObject({ ok: true, files: [{ oldPath: 'src/util.py', newPath: null, status: 'deleted', deletions: 20 }] });
    expectGitAgrees(sandbox, patch, result);
  });

  it('accepts a rename with an edit inside an allowed directory', () => {
    sandbox.git('mv', 'src/util.py', 'src/helpers.py');
    sandbox.write({ 'src/helpers.py': lines('util', 20).replace('util line 3\n', 'util line three\n') });
    const patch = sandbox.staged('-M');
    const result = checkPatch(patch, rules);
    expect(patch).toContain('rename from src/util.py');
    expect(result).toMatchObject({ ok: true, files: [{ oldPath: 'src/util.py', newPath: 'src/helpers.py', status: 'renamed', hunks: 1 }] });
    expectGitAgrees(sandbox, patch, result);
  });

  it('accepts a rename across allowed directories', () => {
    mkdirSync(join(sandbox.repo, 'lib'));
    sandbox.git('mv', 'src/util.py', 'lib/util.py');
    const patch = sandbox.staged('-M');
    const result = checkPatch(patch, rules);
    expect(result).toMatchObject({ ok: true, files: [{ oldPath: 'src/util.py', newPath: 'lib/util.py', status: 'renamed', hunks: 0 }] });
    expectGitAgrees(sandbox, patch, result);
  });

  it('refuses a rename from a disallowed path into an allowed one', () => {
    sandbox.git('mv', 'secret/key.py', 'src/key.py');
    const patch = sandbox.staged('-M');
    const result = checkPatch(patch, rules);
    expect(violationsOf(result)).toEqual([['patch_path_not_allowed', 'secret/key.py']]);
    expectGitAgrees(sandbox, patch, result);
  });

  it('refuses a copy out of a disallowed path', () => {
    copyFileSync(join(sandbox.repo, 'secret/key.py'), join(sandbox.repo, 'src/key_copy.py'));
    const patch = sandbox.staged('-C', '--find-copies-harder');
    const result = checkPatch(patch, rules);
    expect(result.files).toMatchObject([{ oldPath: 'secret/key.py', newPath: 'src/key_copy.py', status: 'copied' }]);
    expect(violationsOf(result)).toEqual([['patch_path_not_allowed', 'secret/key.py']]);
    expectGitAgrees(sandbox, patch, result);
  });

  it('accepts a mode change', () => {
    chmodSync(join(sandbox.repo, 'run.sh'), 0o755);
    const patch = sandbox.git('diff', '--binary');
    const result = checkPatch(patch, rules);
    expect(patch).toContain('new mode 100755');
    expect(result).toEqual({ ok: true, files: [{ oldPath: 'run.sh', newPath: 'run.sh', status: 'mode', binary: false, hunks: 0, additions: 0, deletions: 0 }] });
    expectGitAgrees(sandbox, patch, result);
  });

  it('refuses a mode change outside the allowed paths', () => {
    chmodSync(join(sandbox.repo, 'README.md'), 0o755);
    const patch = sandbox.git('diff', '--binary');
    expect(violationsOf(checkPatch(patch, rules))).toEqual([['patch_path_not_allowed', 'README.md']]);
  });

  it('refuses a real binary file', () => {
    sandbox.write({ 'src/weights.bin': Buffer.from([0, 1, 2, 3, 0, 255, 254, 0, 10, 0]) });
    const patch = sandbox.staged();
    const result = checkPatch(patch, rules);
    expect(patch).toContain('GIT binary patch');
    expect(violationsOf(result)).toEqual([['patch_binary', 'src/weights.bin']]);
    expectGitAgrees(sandbox, patch, result);
  });

  it('refuses a .pyc file', () => {
    sandbox.write({ 'src/model.pyc': Buffer.from([0x6f, 0x0d, 0x0d, 0x0a, 0, 0, 0, 0, 0xe3, 0, 0x73]) });
    const patch = sandbox.staged();
    const result = checkPatch(patch, rules);
    expect(violationsOf(result)).toEqual([
      ['patch_bytecode', 'src/model.pyc'],
      ['patch_binary', 'src/model.pyc'],
    ]);
    expectGitAgrees(sandbox, patch, result);
  });

  it('refuses files under __pycache__, text ones included', () => {
    sandbox.write({ 'src/__pycache__/notes.txt': 'cached\n', 'src/__pycache__/model.cpython-311.pyo': 'not really bytecode\n' });
    const patch = sandbox.staged();
    const result = checkPatch(patch, rules);
    expect(violationsOf(result)).toEqual([
      ['patch_bytecode', 'src/__pycache__/model.cpython-311.pyo'],
      ['patch_bytecode', 'src/__pycache__/notes.txt'],
    ]);
    expectGitAgrees(sandbox, patch, result);
  });

  it('accepts unicode, space and quote characters in file names (quoted paths)', () => {
    const names = ['src/é.py', 'src/my file.py', 'src/q"uote.py', 'src/日本/データ.py'];
    sandbox.write(Object.fromEntries(names.map((name) => [name, 'x = 1\n'])));
    sandbox.write({ 'src/model.py': '' });
    sandbox.git('add', '-A');
    sandbox.git('commit', '-q', '-m', 'names');
    sandbox.git('mv', 'src/model.py', 'src/modèle.py');
    sandbox.write(Object.fromEntries(names.map((name) => [name, 'x = 2\n'])));
    const patch = sandbox.staged('-M');
    const result = checkPatch(patch, rules);
    expect(patch).toContain('diff --git "a/src/\\303\\251.py" "b/src/\\303\\251.py"');
    expect(patch).toContain('--- a/src/my file.py\t');
    expect(patch).toContain('"a/src/q\\"uote.py"');
    expect(result.ok).toBe(true);
    expect(result.files.map((file) => [file.oldPath, file.newPath])).toEqual(
      expect.arrayContaining([...names.map((name) => [name, name]), ['src/model.py', 'src/modèle.py']]),
    );
    expectGitAgrees(sandbox, patch, result);
  });

  it('accepts a file without a trailing newline', () => {
    sandbox.write({ 'src/model.py': lines('model', 20).slice(0, -1), 'src/util.py': `${lines('util', 20)}tail` });
    const patch = sandbox.git('diff', '--binary');
    const result = checkPatch(patch, rules);
    expect(patch).toContain('\\ No newline at end of file');
    expect(result).toMatchObject({ ok: true, files: [{ newPath: 'src/model.py', additions: 1, deletions: 1 }, { newPath: 'src/util.py', additions: 1, deletions: 0 }] });
    expectGitAgrees(sandbox, patch, result);
  });

  it('accepts a large diff at exactly max_patch_bytes and refuses it one byte lower', () => {
    sandbox.write({ 'src/model.py': lines('a much longer model line with some ünïcödé', 4000) });
    const patch = sandbox.git('diff', '--binary');
    const bytes = Buffer.byteLength(patch, 'utf8');
    expect(bytes).toBeGreaterThan(200_000);
    const atLimit = checkPatch(patch, { ...rules, maxPatchBytes: bytes });
    expect(atLimit.ok).toBe(true);
    expect(checkPatch(patch, { ...rules, maxPatchBytes: bytes - 1 })).toMatchObject({
      ok: false,
      violations: [{ type: 'patch_too_large', ctx: { max_bytes: bytes - 1, actual_bytes: bytes } }],
    });
    expectGitAgrees(sandbox, patch, atLimit);
  });

  it('parses a 1 MiB patch of many files', () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 690; i++) files[`src/gen/module_${i}.py`] = lines(`generated module ${i} with a fairly long line`, 25);
    sandbox.write(files);
    const patch = sandbox.staged();
    const bytes = Buffer.byteLength(patch, 'utf8');
    expect(bytes).toBeGreaterThan(1_000_000);
    expect(bytes).toBeLessThanOrEqual(1_048_576);
    const result = checkPatch(patch, { ...rules, maxPatchBytes: 1_048_576 });
    expect(result.ok).toBe(true);
    expect(result.files).toHaveLength(690);
    expectGitAgrees(sandbox, patch, result);
  });

  it('sees a file that git would apply from a plain ---/+++ section smuggled after a hunk', () => {
    sandbox.write({ 'src/model.py': lines('model', 20).replace('model line 1\n', 'changed\n'), 'secret/key.py': 'stolen\n' });
    const allowed = sandbox.git('diff', '--binary', '--', 'src');
    const smuggled = sandbox.git('diff', '--binary', '--', 'secret').replace(/^diff --git .*\nindex .*\n/, '');
    const patch = allowed + smuggled;
    const result = checkPatch(patch, rules);
    expect(violationsOf(result)).toEqual([['patch_path_not_allowed', 'secret/key.py']]);
    expectGitAgrees(sandbox, patch, result);
  });

  it('refuses garbage between files, which git apply would skip', () => {
    sandbox.write({ 'src/model.py': lines('model', 20).replace('model line 1\n', 'changed\n'), 'src/util.py': 'changed\n' });
    const [first, second] = sandbox.git('diff', '--binary').split(/(?=^diff --git )/m);
    const patch = `${first}this line is not part of any diff\n${second}`;
    expect(sandbox.gitView(patch).changed).toEqual(['src/model.py', 'src/util.py']);
    const garbageLine = first.split('\n').length;
    expect(checkPatch(patch, rules)).toMatchObject({ ok: false, violations: [{ type: 'patch_unparseable', ctx: { line: garbageLine } }] });
  });
});
