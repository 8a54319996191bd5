import { thrownBy } from '@rcs/testing';
import { newBinaryFile, patch } from '../test/patch-text';
import { parsePatch, PatchParseError, type PatchFile } from './parse-patch';

const modifyX = [
  'diff --git a/src/x.py b/src/x.py',
  'index 422c2b7..55dce13 100644',
  '--- a/src/x.py',
  '+++ b/src/x.py',
  '@@ -1,3 +1,3 @@ def main():',
  ' a',
  '-b',
  '+B',
  ' c',
];

const parseError = (text: string): PatchParseError | undefined => thrownBy(PatchParseError, () => parsePatch(text));

const file = (fields: Partial<PatchFile>): PatchFile => ({
  oldPath: 'src/x.py',
  newPath: 'src/x.py',
  status: 'modified',
  binary: false,
  hunks: 1,
  additions: 1,
  deletions: 1,
  ...fields,
});

describe('parsePatch', () => {
  it('reads nothing from an empty patch', () => {
    expect(parsePatch('')).toEqual([]);
  });

  it('reads a modification with its counts', () => {
    expect(parsePatch(patch(...modifyX))).toEqual([file({})]);
  });

  it('reads several hunks and files', () => {
    const text = patch(
      ...modifyX,
      '@@ -10,2 +10,3 @@',
      ' j',
      '+k',
      ' l',
      'diff --git a/src/y.py b/src/y.py',
      '--- a/src/y.py',
      '+++ b/src/y.py',
      '@@ -1 +1 @@',
      '-y',
      '+Y',
    );
    expect(parsePatch(text)).toEqual([file({ hunks: 2, additions: 2 }), file({ oldPath: 'src/y.py', newPath: 'src/y.py' })]);
  });

  it('reads hunk lines by count, so a removed "--- " line stays inside its hunk', () => {
    const text = patch('diff --git a/doc.md b/doc.md', '--- a/doc.md', '+++ b/doc.md', '@@ -1,2 +0,0 @@', '--- a/other', '-+++ b/other');
    expect(parsePatch(text)).toEqual([file({ oldPath: 'doc.md', newPath: 'doc.md', additions: 0, deletions: 2 })]);
  });

  it('ignores blank lines after the last hunk', () => {
    expect(parsePatch(`${patch(...modifyX)}\n\n`)).toEqual([file({})]);
  });

  it('reads an empty line inside a hunk as empty context, as git apply does', () => {
    const text = patch('diff --git a/a b/a', '--- a/a', '+++ b/a', '@@ -1,3 +1,3 @@', ' x', '', '-y', '+z');
    expect(parsePatch(text)).toEqual([file({ oldPath: 'a', newPath: 'a' })]);
  });

  it('accepts "\\ No newline at end of file" after either side', () => {
    const text = patch('diff --git a/a b/a', '--- a/a', '+++ b/a', '@@ -1 +1 @@', '-x', '\\ No newline at end of file', '+y', '\\ No newline at end of file');
    expect(parsePatch(text)).toEqual([file({ oldPath: 'a', newPath: 'a' })]);
  });

  it('reads a creation, a deletion, and an empty new file', () => {
    const text = patch(
      'diff --git a/src/new.py b/src/new.py',
      'new file mode 100644',
      'index 0000000..e69de29',
      '--- /dev/null',
      '+++ b/src/new.py',
      '@@ -0,0 +1,2 @@',
      '+a',
      '+b',
      'diff --git a/src/old.py b/src/old.py',
      'deleted file mode 100644',
      'index e69de29..0000000',
      '--- a/src/old.py',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-a',
      'diff --git a/src/empty.py b/src/empty.py',
      'new file mode 100644',
      'index 0000000..e69de29',
    );
    expect(parsePatch(text)).toEqual([
      file({ oldPath: null, newPath: 'src/new.py', status: 'added', additions: 2, deletions: 0 }),
      file({ oldPath: 'src/old.py', newPath: null, status: 'deleted', additions: 0, deletions: 1 }),
      file({ oldPath: null, newPath: 'src/empty.py', status: 'added', hunks: 0, additions: 0, deletions: 0 }),
    ]);
  });

  it('reads a mode-only change', () => {
    const text = patch('diff --git a/run.sh b/run.sh', 'old mode 100644', 'new mode 100755');
    expect(parsePatch(text)).toEqual([file({ oldPath: 'run.sh', newPath: 'run.sh', status: 'mode', hunks: 0, additions: 0, deletions: 0 })]);
  });

  it('reads renames and copies, with and without content changes', () => {
    const text = patch(
      'diff --git a/src/a.py b/lib/a.py',
      'similarity index 100%',
      'rename from src/a.py',
      'rename to lib/a.py',
      'diff --git a/src/b.py b/lib/b.py',
      'similarity index 80%',
      'rename from src/b.py',
      'rename to lib/b.py',
      'index 1111111..2222222 100644',
      '--- a/src/b.py',
      '+++ b/lib/b.py',
      '@@ -1 +1 @@',
      '-b',
      '+B',
      'diff --git a/src/c.py b/src/d.py',
      'similarity index 100%',
      'copy from src/c.py',
      'copy to src/d.py',
      'diff --git a/old b/new',
      'rename old old',
      'rename new new',
    );
    expect(parsePatch(text)).toEqual([
      file({ oldPath: 'src/a.py', newPath: 'lib/a.py', status: 'renamed', hunks: 0, additions: 0, deletions: 0 }),
      file({ oldPath: 'src/b.py', newPath: 'lib/b.py', status: 'renamed' }),
      file({ oldPath: 'src/c.py', newPath: 'src/d.py', status: 'copied', hunks: 0, additions: 0, deletions: 0 }),
      file({ oldPath: 'old', newPath: 'new', status: 'renamed', hunks: 0, additions: 0, deletions: 0 }),
    ]);
  });

  it('decodes quoted names and reads names with spaces', () => {
    const text = patch(
      'diff --git "a/src/f\\303\\251 \\"q\\".py" "b/src/f\\303\\251 \\"q\\".py"',
      '--- "a/src/f\\303\\251 \\"q\\".py"',
      '+++ "b/src/f\\303\\251 \\"q\\".py"',
      '@@ -1 +1 @@',
      '-a',
      '+b',
      'diff --git a/src/my b/file.py b/src/my b/file.py',
      '--- a/src/my b/file.py\t',
      '+++ b/src/my b/file.py\t',
      '@@ -1 +1 @@',
      '-a',
      '+b',
      'diff --git a/src/plain.py "b/src/\\303\\251.py"',
      'similarity index 100%',
      'rename from src/plain.py',
      'rename to "src/\\303\\251.py"',
    );
    expect(parsePatch(text)).toEqual([
      file({ oldPath: 'src/fé "q".py', newPath: 'src/fé "q".py' }),
      file({ oldPath: 'src/my b/file.py', newPath: 'src/my b/file.py' }),
      file({ oldPath: 'src/plain.py', newPath: 'src/é.py', status: 'renamed', hunks: 0, additions: 0, deletions: 0 }),
    ]);
  });

  it('takes the names of a rename between names with spaces from its rename lines', () => {
    const text = patch('diff --git a/x b/y b/x b/z', 'rename from x b/y', 'rename to x b/z');
    expect(parsePatch(text)).toEqual([file({ oldPath: 'x b/y', newPath: 'x b/z', status: 'renamed', hunks: 0, additions: 0, deletions: 0 })]);
  });

  it('reads binary patches as binary', () => {
    const text = patch(
      ...newBinaryFile('img.png'),
      'diff --git a/blob.bin b/blob.bin',
      'index 6ebbd4f..0a1b2c3 100644',
      'GIT binary patch',
      'delta 12',
      'TcmV?d00001B1dz',
      '',
      'diff --git a/other.bin b/other.bin',
      'index 6ebbd4f..0a1b2c3 100644',
      'Binary files a/other.bin and b/other.bin differ',
    );
    const binary = { binary: true, hunks: 0, additions: 0, deletions: 0 };
    expect(parsePatch(text)).toEqual([
      file({ oldPath: null, newPath: 'img.png', status: 'added', ...binary }),
      file({ oldPath: 'blob.bin', newPath: 'blob.bin', ...binary }),
      file({ oldPath: 'other.bin', newPath: 'other.bin', ...binary }),
    ]);
  });

  it('reads plain unified diffs with a/ and b/ prefixes, timestamps after a tab', () => {
    const text = patch(
      '--- a/src/x.py\t2024-01-01 00:00:00.000000000 +0000',
      '+++ b/src/x.py\t2024-01-02 00:00:00.000000000 +0000',
      '@@ -1 +1 @@',
      '-a',
      '+b',
      '--- /dev/null',
      '+++ b/src/new.py',
      '@@ -0,0 +1 @@',
      '+n',
      '--- a/src/gone.py',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-g',
    );
    expect(parsePatch(text)).toEqual([
      file({}),
      file({ oldPath: null, newPath: 'src/new.py', status: 'added', deletions: 0 }),
      file({ oldPath: 'src/gone.py', newPath: null, status: 'deleted', additions: 0 }),
    ]);
  });

  describe('refuses', () => {
    it.each<[string, string, string, number]>([
      ['text that is not a diff', 'hello world\n', 'not a unified diff', 1],
      ['a commit message before the diff', patch('commit 1234', ...modifyX), 'not a unified diff', 1],
      ['a patch without its final newline', patch(...modifyX).slice(0, -1), 'does not end with a newline', 9],
      ['a newline alone', '\n', 'not a unified diff', 1],
      ['blank lines alone', '\n\n\n', 'not a unified diff', 1],
      ['garbage between files', patch(...modifyX, 'garbage', ...modifyX), 'unexpected line after a file diff', 10],
      ['a blank line between files', patch(...modifyX, '', ...modifyX), 'unexpected line after a file diff', 10],
      ['a hunk longer than its header', patch(...modifyX, '+extra'), 'unexpected line after a file diff', 10],
      ['a hunk shorter than its header', patch(...modifyX.slice(0, -1)), 'ends inside a hunk', 5],
      ['a hunk shorter than its header before the next file', patch(...modifyX.slice(0, -1), ...modifyX), 'fewer lines than its header', 9],
      ['more old lines than the header counts', patch(...modifyX.slice(0, 5), '-a', '-b', '-c', '-d'), 'more lines than its header', 5],
      ['a hunk of context only', patch('diff --git a/a b/a', '--- a/a', '+++ b/a', '@@ -1 +1 @@', ' a'), 'without added or removed lines', 4],
      ['a malformed hunk header', patch('diff --git a/a b/a', '--- a/a', '+++ b/a', '@@ -x +1 @@', '+a'), 'malformed hunk header', 4],
      ['a hunk without ---/+++', patch('diff --git a/a b/a', '@@ -1 +1 @@', '-a', '+b'), 'without "---" and "+++"', 2],
      ['a hunk before any file header', patch('@@ -1 +1 @@', '-a', '+b'), 'not a unified diff', 1],
      ['--- without +++', patch('--- a/a', '@@ -1 +1 @@', '-a', '+b'), 'followed by a "+++" line', 2],
      ['---/+++ without a hunk', patch('--- a/a', '+++ b/a', 'text'), 'expected a "@@" hunk', 3],
      ['a no-newline marker right after the hunk header', patch('--- a/a', '+++ b/a', '@@ -1 +1 @@', '\\ No newline at end of file', '-a', '+b'), 'misplaced', 4],
      ['a header line without any change', patch('diff --git a/a b/a', 'index 1111111..2222222 100644'), 'without any change', 1],
      ['git --no-prefix output', patch('diff --git src/a.py src/a.py', '--- src/a.py', '+++ src/a.py', '@@ -1 +1 @@', '-a', '+b'), 'lacks git\'s "a/" prefix', 1],
      ['plain diff without prefixes', patch('--- src/a.py', '+++ src/a.py', '@@ -1 +1 @@', '-a', '+b'), 'lacks git\'s "a/" prefix', 1],
      ['a header whose names cannot be told apart and nothing else names them', patch('diff --git a/x b/y b/x b/z', 'old mode 100644', 'new mode 100755'), 'cannot tell which file', 1],
      ['a --- name that differs from the header', patch('diff --git a/a b/a', '--- a/evil', '+++ b/a', '@@ -1 +1 @@', '-a', '+b'), 'inconsistent old file names', 1],
      ['a rename line that differs from the header', patch('diff --git a/a b/b', 'rename from evil', 'rename to b'), 'inconsistent old file names', 1],
      ['different names without a rename', patch('diff --git a/a b/b', '--- a/a', '+++ b/b', '@@ -1 +1 @@', '-a', '+b'), 'differ without a "rename"', 1],
      ['rename from without rename to', patch('diff --git a/a b/b', 'rename from a'), 'must come together', 1],
      ['a rename that is also a new file', patch('diff --git a/a b/b', 'new file mode 100644', 'rename from a', 'rename to b'), 'contradictory', 1],
      ['a new file whose --- is a name', patch('diff --git a/a b/a', 'new file mode 100644', '--- a/a', '+++ b/a', '@@ -0,0 +1 @@', '+a'), 'not /dev/null', 1],
      ['a repeated header', patch('diff --git a/a b/b', 'rename from a', 'rename from a', 'rename to b'), 'repeated "rename from"', 3],
      ['an invalid mode', patch('diff --git a/a b/a', 'old mode 100644', 'new mode rwx'), 'invalid file mode', 3],
      ['plain names that differ', patch('--- a/a', '+++ b/b', '@@ -1 +1 @@', '-a', '+b'), 'name different files', 1],
      ['/dev/null on both sides', patch('--- /dev/null', '+++ /dev/null', '@@ -0,0 +1 @@', '+a'), 'both sides', 1],
      ['a name with a space and no tab', patch('--- a/my file.py 2024-01-01', '+++ b/my file.py 2024-01-01', '@@ -1 +1 @@', '-a', '+b'), 'must end with a tab', 1],
      ['a bad escape in a quoted name', patch('diff --git "a/\\q" "b/\\q"', 'old mode 100644', 'new mode 100755'), 'invalid escape', 1],
      ['a quoted name that is not UTF-8', patch('diff --git "a/\\377" "b/\\377"', 'old mode 100644', 'new mode 100755'), 'not valid UTF-8', 1],
      ['text after a quoted name', patch('diff --git "a/x"y "b/x"', 'old mode 100644', 'new mode 100755'), 'malformed "diff --git" line', 1],
      ['a corrupt binary patch', patch('diff --git a/b b/b', 'index 1..2 100644', 'GIT binary patch', 'literal 5', 'not base85 at all', ''), 'corrupt binary patch', 5],
      ['a binary patch without a hunk', patch('diff --git a/b b/b', 'index 1..2 100644', 'GIT binary patch', ''), 'expected "literal" or "delta"', 4],
      ['a combined (merge) diff', patch('diff --cc a.txt', 'index 1,2..3', '--- a/a.txt', '+++ b/a.txt', '@@@ -1,1 -1,1 +1,1 @@@', '- a', ' -b', '++c'), 'not a unified diff', 1],
    ])('%s', (_name, text, reason, line) => {
      expect(parseError(text)).toMatchObject({ reason: expect.stringContaining(reason), line });
    });
  });

  it('parses a 1 MiB patch of many files', () => {
    const section = (i: number): string[] => [
      `diff --git a/pkg/m${i}.py b/pkg/m${i}.py`,
      'index 1111111..2222222 100644',
      `--- a/pkg/m${i}.py`,
      `+++ b/pkg/m${i}.py`,
      '@@ -1,3 +1,3 @@',
      ' x'.padEnd(200, 'x'),
      '-'.padEnd(200, 'y'),
      '+'.padEnd(200, 'z'),
      ' w'.padEnd(200, 'w'),
    ];
    const sections: string[] = [];
    let bytes = 0;
    for (let i = 0; bytes < 1024 * 1024 - 2000; i++) {
      const text = patch(...section(i));
      sections.push(text);
      bytes += text.length;
    }
    const files = parsePatch(sections.join(''));
    expect(files).toHaveLength(sections.length);
    expect(files[files.length - 1]).toMatchObject({ newPath: `pkg/m${sections.length - 1}.py`, hunks: 1, additions: 1, deletions: 1 });
  });
});
