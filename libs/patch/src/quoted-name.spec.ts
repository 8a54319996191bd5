import { readQuotedName } from './quoted-name';

describe('readQuotedName', () => {
  it('decodes octal escapes as UTF-8 bytes', () => {
    expect(readQuotedName('"a/f\\303\\251.txt" rest', 0)).toEqual({ ok: true, name: 'a/f\u00e9.txt', end: 17 });
  });

  it('decodes the simple C escapes', () => {
    expect(readQuotedName('"\\a\\b\\t\\n\\v\\f\\r\\"\\\\"', 0)).toMatchObject({ ok: true, name: '\u0007\b\t\n\u000b\f\r"\\' });
  });

  it('keeps characters that are not escaped, non-ASCII ones included', () => {
    expect(readQuotedName('x "b/my fé😀"', 2)).toEqual({ ok: true, name: 'b/my fé😀', end: 13 });
  });

  it('refuses an unknown escape, a short octal escape, a missing quote and invalid UTF-8', () => {
    expect(readQuotedName('"a\\q"', 0)).toMatchObject({ ok: false, reason: expect.stringContaining('escape') });
    expect(readQuotedName('"a\\30"', 0)).toMatchObject({ ok: false, reason: expect.stringContaining('escape') });
    expect(readQuotedName('"a/b', 0)).toMatchObject({ ok: false, reason: expect.stringContaining('closing quote') });
    expect(readQuotedName('"a/\\377"', 0)).toMatchObject({ ok: false, reason: expect.stringContaining('UTF-8') });
  });
});
