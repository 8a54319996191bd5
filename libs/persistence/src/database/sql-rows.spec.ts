import { enumColumn, intColumn, nullableFloatColumn, nullableIntColumn, nullableTextColumn, nullableTimestampColumn, textColumn, timestampColumn, UnexpectedRowError } from './sql-rows';

enum Colour {
  Red = 'red',
  Blue = 'blue',
}

describe('raw-row column readers', () => {
  const at = new Date('2026-01-02T03:04:05Z');
  const row = { id: 'a', n: 3, f: 1.5, at, colour: 'blue', none: null, count: '7' };

  it('read what a row holds, with its type', () => {
    expect(textColumn(row, 'id')).toBe('a');
    expect(intColumn(row, 'n')).toBe(3);
    expect(nullableFloatColumn(row, 'f')).toBe(1.5);
    expect(timestampColumn(row, 'at')).toBe(at);
    expect(enumColumn(row, 'colour', Colour)).toBe(Colour.Blue);
    expect([nullableTextColumn(row, 'none'), nullableIntColumn(row, 'none'), nullableFloatColumn(row, 'none'), nullableTimestampColumn(row, 'none')]).toEqual([
      null,
      null,
      null,
      null,
    ]);
  });

  it('refuse a column of another type, a missing column and an unknown enum value, naming the column', () => {
    // A bigint count arrives as a string: the query must cast it with ::int.
    expect(() => intColumn(row, 'count')).toThrow(new UnexpectedRowError('Column count: expected int, got string'));
    expect(() => intColumn(row, 'f')).toThrow(UnexpectedRowError);
    expect(() => textColumn(row, 'missing')).toThrow('Column missing: expected text, got undefined');
    expect(() => textColumn(row, 'none')).toThrow('Column none: expected text, got null');
    expect(() => timestampColumn(row, 'id')).toThrow(UnexpectedRowError);
    expect(() => enumColumn({ colour: 'green' }, 'colour', Colour)).toThrow('Column colour: expected one of red, blue, got string');
  });
});
