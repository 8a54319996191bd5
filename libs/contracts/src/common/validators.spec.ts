import { plainToInstance } from 'class-transformer';
import { IsInt, validateSync } from 'class-validator';
import {
  ContractConstraint,
  ExactlyOneOf,
  IsRepoGlob,
  IsStringRecord,
  MaxProperties,
  nestedRecordErrors,
  REPO_GLOB_MAX_LENGTH,
  repoGlobViolation,
  RepoGlobViolation,
  ValidateNestedRecord,
} from './validators';

class Entry {
  @IsInt()
  n!: number;
}

class Holder {
  @IsRepoGlob({ each: true })
  globs: unknown[] = [];

  @IsStringRecord()
  @MaxProperties(2)
  env: unknown = {};

  @ValidateNestedRecord(() => Entry)
  entries: unknown = {};

  @ExactlyOneOf(['a', 'b'])
  a: unknown = null;

  b: unknown = null;
}

const failures = (plain: Record<string, unknown>) =>
  validateSync(plainToInstance(Holder, { b: 1, ...plain })).map((error) => [error.property, Object.keys(error.constraints ?? {})]);

describe('repoGlobViolation', () => {
  it.each([
    ['pack/train.py', null],
    ['src/**/*.py', null],
    ['a?c/[ab].txt', null],
    ['...hidden/x', null],
    ['', RepoGlobViolation.Empty],
    ['x'.repeat(REPO_GLOB_MAX_LENGTH), null],
    ['x'.repeat(REPO_GLOB_MAX_LENGTH + 1), RepoGlobViolation.TooLong],
    ['/etc/*', RepoGlobViolation.Absolute],
    ['..', RepoGlobViolation.ParentSegment],
    ['src/../../x', RepoGlobViolation.ParentSegment],
    ['src\\x', RepoGlobViolation.Backslash],
    ['src/\nx', RepoGlobViolation.ControlCharacter],
    [7, RepoGlobViolation.NotString],
  ])('%j → %s', (value, expected) => {
    expect(repoGlobViolation(value)).toBe(expected);
  });
});

describe('contract validators', () => {
  it('accept valid values', () => {
    expect(failures({ globs: ['a/*'], env: { A: 'x' }, entries: { k: { n: 1 } } })).toEqual([]);
  });

  it('IsRepoGlob with each checks every item', () => {
    expect(failures({ globs: ['a/*', '/b'] })).toEqual([['globs', [ContractConstraint.RepoGlob]]]);
  });

  it('IsStringRecord refuses non-string values and non-objects; MaxProperties counts keys', () => {
    expect(failures({ env: { A: 1 } })).toEqual([['env', [ContractConstraint.StringRecord]]]);
    expect(failures({ env: ['x'] })).toEqual([['env', [ContractConstraint.StringRecord]]]);
    expect(failures({ env: { A: 'a', B: 'b', C: 'c' } })).toEqual([['env', [ContractConstraint.MaxProperties]]]);
  });

  it('ExactlyOneOf counts the non-null properties', () => {
    expect(failures({ a: 1 })).toEqual([['a', [ContractConstraint.ExactlyOneOf]]]);
    expect(failures({ b: null })).toEqual([['a', [ContractConstraint.ExactlyOneOf]]]);
  });

  it('ValidateNestedRecord builds entries as instances and validates each strictly', () => {
    const holder = plainToInstance(Holder, { entries: { k: { n: 1 } } });
    expect((holder.entries as Record<string, unknown>)['k']).toBeInstanceOf(Entry);
    expect(failures({ entries: { k: { n: 'x' } } })).toEqual([['entries', [ContractConstraint.NestedRecord]]]);
    expect(failures({ entries: 'x' })).toEqual([['entries', [ContractConstraint.NestedRecord]]]);
  });
});

describe('nestedRecordErrors', () => {
  it('shapes entry errors like nested class-validator errors, keyed by entry', () => {
    const holder = plainToInstance(Holder, { entries: { ok: { n: 1 }, bad: { n: 1.5 }, extra: { n: 1, m: 2 }, scalar: 3 } });
    const errors = nestedRecordErrors(holder.entries);
    expect(errors.map((error) => [error.property, Object.keys(error.constraints ?? {}), error.children?.map((child) => [child.property, Object.keys(child.constraints ?? {})])])).toEqual([
      ['bad', [], [['n', ['isInt']]]],
      ['extra', [], [['m', ['whitelistValidation']]]],
      ['scalar', ['nestedValidation'], []],
    ]);
  });

  it('has nothing to say about a value that is not a record', () => {
    expect(nestedRecordErrors([1])).toEqual([]);
    expect(nestedRecordErrors(null)).toEqual([]);
  });
});
