import { exactTime, formatAlpha, formatDuration, formatMetric, formatPercent, formatRao, plural, relativeTime, shortHash, shortHotkey } from './format';

describe('format', () => {
  it('shortens a hotkey to its first six and last four characters, leaving short strings whole', () => {
    expect(shortHotkey('5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY')).toBe('5Grwva…utQY');
    expect(shortHotkey('alice')).toBe('alice');
    expect(shortHash(`0x${'ab'.repeat(32)}`)).toBe('0xabababab…abab');
  });

  it('says times relative to now, in the past and the future, and exactly in UTC', () => {
    const now = Date.parse('2026-11-24T12:00:00Z');
    expect(relativeTime('2026-11-24T11:59:58Z', now)).toBe('just now');
    expect(relativeTime('2026-11-24T11:59:18Z', now)).toBe('42 s ago');
    expect(relativeTime('2026-11-24T11:57:00Z', now)).toBe('3 min ago');
    expect(relativeTime('2026-11-24T07:00:00Z', now)).toBe('5 h ago');
    expect(relativeTime('2026-11-22T11:00:00Z', now)).toBe('2 d ago');
    expect(relativeTime('2026-11-24T12:10:00Z', now)).toBe('in 10 min');
    expect(relativeTime('not a time', now)).toBe('not a time');
    expect(exactTime('2026-11-24T11:57:00.123Z')).toBe('2026-11-24 11:57:00 UTC');
    expect(formatDuration(0)).toBe('0 s');
  });

  it('prints metrics to six significant digits and rao with separators', () => {
    expect(formatMetric(0.123456789)).toBe('0.123457');
    expect(formatMetric(42)).toBe('42');
    expect(formatMetric(null)).toBe('—');
    expect(formatRao('1234567890123456789012')).toBe('1,234,567,890,123,456,789,012 rao');
    expect(formatRao('0')).toBe('0 rao');
  });
});

describe('units', () => {
  it('writes rao as α exactly, beyond 2^53 too', () => {
    expect(formatAlpha('1500000000')).toBe('1.5 α');
    expect(formatAlpha('1')).toBe('0.000000001 α');
    expect(formatAlpha('0')).toBe('0 α');
    expect(formatAlpha('1234000000000')).toBe('1,234 α');
    expect(formatAlpha('123456789012345678901')).toBe('123,456,789,012.345678901 α');
    expect(formatAlpha('n/a')).toBe('n/a');
  });
  it('writes shares as percentages and counts with their plural', () => {
    expect([formatPercent(0.125), formatPercent(1), formatPercent(0), formatPercent(1 / 3), formatPercent(0.00001), formatPercent(null)]).toEqual(['12.5 %', '100 %', '0 %', '33.33 %', '< 0.01 %', '—']);
    expect([plural(1, 'competition'), plural(0, 'competition'), plural(3, 'competition')]).toEqual(['1 competition', '0 competitions', '3 competitions']);
  });
});
