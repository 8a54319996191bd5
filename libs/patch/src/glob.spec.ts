import { compileGlob, matchesGlob } from './glob';

describe('matchesGlob', () => {
  it.each([
    ['src/*.py', 'src/train.py', true],
    ['src/*.py', 'src/.py', true],
    ['src/*.py', 'src/a/train.py', false],
    ['src/*.py', 'train.py', false],
    ['*', 'README.md', true],
    ['*', 'src/README.md', false],
  ])('* stays inside one segment: %s vs %s', (pattern, path, expected) => {
    expect(matchesGlob(path, pattern)).toBe(expected);
  });

  it.each([
    ['src/**', 'src/a.py', true],
    ['src/**', 'src/a/b/c.py', true],
    ['src/**', 'src', false],
    ['src/**', 'srcx/a.py', false],
    ['**/train.py', 'train.py', true],
    ['**/train.py', 'pack/a/train.py', true],
    ['**/train.py', 'pack/a/xtrain.py', false],
    ['pack/**/train.py', 'pack/train.py', true],
    ['pack/**/train.py', 'pack/x/y/train.py', true],
    ['pack/**/train.py', 'packtrain.py', false],
    ['pack/**/train.py', 'other/pack/train.py', false],
    ['**', 'any/depth/at/all.txt', true],
    ['**/**/x', 'a/b/x', true],
    ['a/**/**', 'a/b', true],
    ['src/**.py', 'src/a/b.py', true],
    ['src/**.py', 'src/b.txt', false],
    ['src/', 'src/a/b.py', true],
  ])('** crosses segments: %s vs %s', (pattern, path, expected) => {
    expect(matchesGlob(path, pattern)).toBe(expected);
  });

  it.each([
    ['a?.py', 'ab.py', true],
    ['a?.py', 'aé.py', true],
    ['a?.py', 'a😀.py', true],
    ['a?.py', 'a.py', false],
    ['a?.py', 'abc.py', false],
    ['a?b', 'a/b', false],
  ])('? is one character of a segment: %s vs %s', (pattern, path, expected) => {
    expect(matchesGlob(path, pattern)).toBe(expected);
  });

  it.each([
    ['train.py', 'trainxpy', false],
    ['src/(a|b).py', 'src/a.py', false],
    ['src/(a|b).py', 'src/(a|b).py', true],
    ['[abc].py', 'a.py', false],
    ['[abc].py', '[abc].py', true],
    ['a+.py', 'aa.py', false],
    ['a+.py', 'a+.py', true],
    ['^x$', '^x$', true],
    ['x{2}', 'xx', false],
    ['x{2}', 'x{2}', true],
    ['a\\d', 'a1', false],
    ['a\\d', 'a\\d', true],
    ['.*', 'anything', false],
  ])('every other character is literal: %s vs %s', (pattern, path, expected) => {
    expect(matchesGlob(path, pattern)).toBe(expected);
  });

  it('anchors both ends', () => {
    expect(matchesGlob('pack/train.py', 'train.py')).toBe(false);
    expect(matchesGlob('train.py.bak', 'train.py')).toBe(false);
  });

  it('is case-sensitive', () => {
    expect(matchesGlob('Src/a.py', 'src/*.py')).toBe(false);
  });
});

describe('compileGlob', () => {
  it('returns a reusable anchored RegExp', () => {
    const glob = compileGlob('pack/*/train.py');
    expect(glob).toBeInstanceOf(RegExp);
    expect(glob.test('pack/a/train.py')).toBe(true);
    expect(glob.test('pack/b/train.py')).toBe(true);
    expect(glob.test('pack/a/b/train.py')).toBe(false);
  });
});
