import { ConfigError, EnvReader } from './env-reader';

describe('EnvReader', () => {
  it('reads typed values, trimming, with fallbacks for unset or blank variables', () => {
    const read = new EnvReader({ S: ' x ', L: 'a, b,,c', I: '42', B: 'on', O: 'dev', N: '0.5', BLANK: '  ' });
    expect([read.string('S', 'd'), read.string('BLANK', 'd'), read.optional('MISSING'), read.list('L')]).toEqual(['x', 'd', null, ['a', 'b', 'c']]);
    expect([read.int('I', 1, 0, 100), read.bool('B', false), read.oneOf('O', ['dev', 'prod'] as const, 'prod'), read.number('N', 1, 0, 1)]).toEqual([
      42,
      true,
      'dev',
      0.5,
    ]);
    expect(read.problems).toEqual([]);
  });

  it('collects every problem instead of stopping at the first', () => {
    const read = new EnvReader({ I: '7.5', B: 'maybe', P: '-1', N: '11' });
    expect([read.int('I', 1, 0, 10), read.bool('B', true), read.positiveNumber('P', 2), read.number('N', 3, 0, 10)]).toEqual([1, true, 2, 3]);
    expect(read.problems).toEqual([
      'I must be an integer from 0 to 10 (got "7.5")',
      'B must be on/off or true/false (got "maybe")',
      'P must be a number above 0 (got "-1")',
      'N must be a number in 0..10 (got "11")',
    ]);
    expect(new ConfigError(read.problems).message).toContain('  - P must be a number above 0');
  });

  it('falls back to the given defaults before the getter fallback, the environment winning', () => {
    const read = new EnvReader({ A: 'env', B: ' ' }, { A: 'default', B: 'default-b', C: '5' });
    expect([read.optional('A'), read.optional('B'), read.int('C', 1, 0, 10), read.optional('D')]).toEqual(['env', 'default-b', 5, null]);
  });
});
