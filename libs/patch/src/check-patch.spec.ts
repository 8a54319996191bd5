import { newBinaryFile, patch } from '../test/patch-text';
import { checkPatch, patchViolationItems, type PatchCheckResult, type PatchViolation } from './check-patch';

const modify = (path: string): string[] => [`diff --git a/${path} b/${path}`, `--- a/${path}`, `+++ b/${path}`, '@@ -1 +1 @@', '-a', '+b'];

const quotedModify = (quoted: string): string[] => [`diff --git "a/${quoted}" "b/${quoted}"`, `--- "a/${quoted}"`, `+++ "b/${quoted}"`, '@@ -1 +1 @@', '-a', '+b'];

const rules = { allowedPatchPaths: ['pack/train.py', 'src/**'], maxPatchBytes: 262144 };

function violations(result: PatchCheckResult): PatchViolation[] {
  return result.ok ? [] : result.violations;
}

describe('checkPatch', () => {
  it('accepts a patch that touches only allowed paths', () => {
    const result = checkPatch(patch(...modify('pack/train.py'), ...modify('src/a/b.py')), rules);
    expect(result).toEqual({ ok: true, files: [expect.objectContaining({ newPath: 'pack/train.py' }), expect.objectContaining({ newPath: 'src/a/b.py' })] });
  });

  it('accepts an empty patch with no files', () => {
    expect(checkPatch('', rules)).toEqual({ ok: true, files: [] });
  });

  describe('size', () => {
    const text = patch(...modify('src/é.py'));
    const bytes = Buffer.byteLength(text, 'utf8');

    it('counts UTF-8 bytes and accepts a patch of exactly max_patch_bytes', () => {
      expect(bytes).toBe(text.length + 4);
      expect(checkPatch(text, { ...rules, maxPatchBytes: bytes }).ok).toBe(true);
    });

    it('refuses one byte more with max_bytes and actual_bytes', () => {
      expect(checkPatch(text, { ...rules, maxPatchBytes: bytes - 1 })).toEqual({
        ok: false,
        files: [],
        violations: [{ type: 'patch_too_large', msg: expect.stringContaining(`${bytes} bytes`), ctx: { max_bytes: bytes - 1, actual_bytes: bytes } }],
      });
    });

    it('checks size before anything else and does not parse an oversized patch', () => {
      const result = checkPatch(`not a diff ${'x'.repeat(2 * 1024 * 1024)}`, { ...rules, maxPatchBytes: 1048576 });
      expect(violations(result).map((v) => v.type)).toEqual(['patch_too_large']);
    });
  });

  it('refuses unparseable text with the line and reason', () => {
    expect(checkPatch('please merge my improvements\n', rules)).toEqual({
      ok: false,
      files: [],
      violations: [{ type: 'patch_unparseable', msg: expect.stringContaining('not a unified git diff'), ctx: { line: 1, reason: expect.any(String) } }],
    });
  });

  describe('paths', () => {
    it('reports each path outside allowed_patch_paths once', () => {
      const result = checkPatch(patch(...modify('README.md'), ...modify('src/ok.py'), ...modify('pack/other.py'), ...modify('README.md')), rules);
      expect(violations(result)).toEqual([
        { type: 'patch_path_not_allowed', path: 'README.md', msg: expect.stringContaining('"README.md"'), ctx: { path: 'README.md' } },
        { type: 'patch_path_not_allowed', path: 'pack/other.py', msg: expect.stringContaining('allowed_patch_paths'), ctx: { path: 'pack/other.py' } },
      ]);
      expect(result.files).toHaveLength(4);
    });

    it('checks both sides of a rename and a copy', () => {
      const text = patch(
        'diff --git a/secret/key.py b/src/key.py',
        'similarity index 100%',
        'rename from secret/key.py',
        'rename to src/key.py',
        'diff --git a/src/x.py b/lib/x.py',
        'similarity index 100%',
        'copy from src/x.py',
        'copy to lib/x.py',
      );
      expect(violations(checkPatch(text, rules)).map((v) => v.path)).toEqual(['secret/key.py', 'lib/x.py']);
    });

    it('checks created, deleted and mode-only files', () => {
      const text = patch(
        'diff --git a/new.py b/new.py',
        'new file mode 100644',
        'index 0000000..e69de29',
        'diff --git a/gone.py b/gone.py',
        'deleted file mode 100644',
        'index e69de29..0000000',
        'diff --git a/run.sh b/run.sh',
        'old mode 100644',
        'new mode 100755',
      );
      expect(violations(checkPatch(text, rules)).map((v) => v.path)).toEqual(['new.py', 'gone.py', 'run.sh']);
    });

    it('checks the decoded name of a quoted path', () => {
      expect(checkPatch(patch(...quotedModify('src/f\\303\\251.py')), rules).ok).toBe(true);
      expect(violations(checkPatch(patch(...quotedModify('f\\303\\251.py')), rules))).toEqual([expect.objectContaining({ path: 'fé.py' })]);
    });

    it('allows nothing when allowed_patch_paths is empty', () => {
      const result = checkPatch(patch(...modify('src/a.py'), ...modify('pack/train.py')), { ...rules, allowedPatchPaths: [] });
      expect(violations(result).map((v) => [v.type, v.path])).toEqual([
        ['patch_path_not_allowed', 'src/a.py'],
        ['patch_path_not_allowed', 'pack/train.py'],
      ]);
    });

    it('matches paths with repeated slashes squashed, as git apply reads them', () => {
      expect(checkPatch(patch(...modify('pack//train.py')), rules).ok).toBe(true);
    });

    it.each([
      ['absolute', patch(...modify('/etc/passwd')), '/etc/passwd', 'the path is absolute'],
      ['dot_dot_segment', patch(...modify('src/../../etc/passwd')), 'src/../../etc/passwd', '".." segment'],
      ['dot_dot_segment', patch(...quotedModify('src\\057..\\057x.py')), 'src/../x.py', '".." segment'],
      ['dot_segment', patch(...modify('src/./x.py')), 'src/./x.py', '"." segment'],
      ['git_dir', patch(...modify('src/.GIT/hooks/pre-commit')), 'src/.GIT/hooks/pre-commit', '".git" segment'],
      ['nul', patch(...quotedModify('src/a\\000b.py')), 'src/a\0b.py', 'NUL'],
      ['backslash', patch(...quotedModify('src\\\\x.py')), 'src\\x.py', 'backslash'],
      ['control_character', patch(...quotedModify('src/a\\tb.py')), 'src/a\tb.py', 'control character'],
      ['empty', patch('diff --git a/ b/', 'old mode 100644', 'new mode 100755'), '', 'empty'],
      ['trailing_slash', patch(...modify('src/x/')), 'src/x/', 'ends with a slash'],
      ['too_long', patch(...modify(`src/${'d/'.repeat(2100)}x.py`)), `src/${'d/'.repeat(2100)}x.py`, 'longer than 4096'],
    ])('refuses a path that no pattern may allow: %s', (reason, text, path, message) => {
      expect(violations(checkPatch(text, { ...rules, allowedPatchPaths: ['**'] }))).toEqual([
        { type: 'patch_path_not_allowed', path, msg: expect.stringContaining(message), ctx: { path, reason } },
      ]);
    });
  });

  describe('bytecode', () => {
    it.each(['src/m.pyc', 'src/m.pyo', 'src/M.PYC', 'src/__pycache__/m.cpython-311.pyc', 'src/__pycache__/notes.txt'])('refuses %s even where the globs allow it', (path) => {
      expect(violations(checkPatch(patch(...modify(path)), rules))).toEqual([
        { type: 'patch_bytecode', path, msg: expect.stringContaining('bytecode'), ctx: { path } },
      ]);
    });

    it('reports bytecode and a disallowed path separately', () => {
      expect(violations(checkPatch(patch(...modify('m.pyc')), rules)).map((v) => v.type)).toEqual(['patch_bytecode', 'patch_path_not_allowed']);
    });

    it('accepts names that merely contain pyc', () => {
      expect(checkPatch(patch(...modify('src/pycache.py'), ...modify('src/x.pyc.md')), rules).ok).toBe(true);
    });
  });

  describe('binary', () => {
    it('refuses GIT binary patch and Binary files … differ, naming the file', () => {
      const text = patch(
        ...newBinaryFile('src/model.bin'),
        'diff --git a/src/old.bin b/src/old.bin',
        'deleted file mode 100644',
        'index 6ebbd4f..0000000',
        'Binary files a/src/old.bin and /dev/null differ',
      );
      expect(violations(checkPatch(text, rules))).toEqual([
        { type: 'patch_binary', path: 'src/model.bin', msg: expect.stringContaining('binary'), ctx: { path: 'src/model.bin' } },
        { type: 'patch_binary', path: 'src/old.bin', msg: expect.stringContaining('binary'), ctx: { path: 'src/old.bin' } },
      ]);
    });
  });

  it('sees a file smuggled after a hunk as a plain ---/+++ section', () => {
    const text = patch(...modify('src/ok.py'), '--- a/secret.txt', '+++ b/secret.txt', '@@ -1 +1 @@', '-a', '+b');
    expect(violations(checkPatch(text, rules))).toEqual([expect.objectContaining({ type: 'patch_path_not_allowed', path: 'secret.txt' })]);
  });
});

describe('patchViolationItems', () => {
  it('turns violations into 422 items at body.patch, with the path as input', () => {
    const result = checkPatch(patch(...modify('README.md')), rules);
    expect(patchViolationItems(violations(result))).toEqual([
      {
        type: 'patch_path_not_allowed',
        loc: ['body', 'patch'],
        msg: 'The patch touches "README.md", which matches none of the task\'s allowed_patch_paths.',
        input: 'README.md',
        ctx: { path: 'README.md' },
      },
    ]);
  });

  it('leaves input out when a violation has no path', () => {
    const [item] = patchViolationItems(violations(checkPatch('x'.repeat(10), { ...rules, maxPatchBytes: 5 })));
    expect(item).toEqual({ type: 'patch_too_large', loc: ['body', 'patch'], msg: expect.any(String), ctx: { max_bytes: 5, actual_bytes: 10 } });
    expect('input' in item).toBe(false);
  });
});
