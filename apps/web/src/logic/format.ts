/** How values read on the page: shortened hotkeys, relative times, metrics and ages. */

/** `5GrwvaEF…utQY`: enough to tell hotkeys apart at a glance; the full value goes in the title and copy button. */
export function shortHotkey(hotkey: string): string {
  return hotkey.length <= 14 ? hotkey : `${hotkey.slice(0, 6)}…${hotkey.slice(-4)}`;
}

/** `0x1234abcd…9f00` for long hex hashes and roots. */
export function shortHash(hash: string): string {
  return hash.length <= 20 ? hash : `${hash.slice(0, 10)}…${hash.slice(-4)}`;
}

const UNITS: [number, string][] = [
  [86_400, 'd'],
  [3_600, 'h'],
  [60, 'min'],
  [1, 's'],
];

/** A duration in its largest whole unit: `0 s`, `42 s`, `3 min`, `5 h`, `2 d`. */
export function formatDuration(seconds: number): string {
  const abs = Math.abs(seconds);
  for (const [size, unit] of UNITS) {
    if (abs >= size) return `${Math.floor(abs / size)} ${unit}`;
  }
  return '0 s';
}

/** `3 min ago` / `in 2 h`, relative to `now`; under 5 seconds either way is `just now`. */
export function relativeTime(iso: string, now: number = Date.now()): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const seconds = Math.round((now - at) / 1000);
  if (Math.abs(seconds) < 5) return 'just now';
  return seconds > 0 ? `${formatDuration(seconds)} ago` : `in ${formatDuration(-seconds)}`;
}

/** The exact time shown on hover: ISO 8601 in UTC, to the second. */
export function exactTime(iso: string): string {
  const at = Date.parse(iso);
  return Number.isNaN(at) ? iso : `${new Date(at).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/** Six significant digits, without trailing zeros; integers as they are. */
export function formatMetric(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  if (Number.isInteger(value) && Math.abs(value) < 1e15) return String(value);
  return String(Number(value.toPrecision(6)));
}

/** Rao (decimal string, may exceed 2^53) with thousands separators. */
export function formatRao(rao: string): string {
  return /^\d+$/.test(rao) ? `${rao.replace(/\B(?=(\d{3})+(?!\d))/g, ',')} rao` : rao;
}

/** 1 α = 10⁹ rao. */
const RAO_PER_ALPHA = 1_000_000_000n;

/** Rao (a decimal string, may exceed 2^53) in α: `1.5 α`, `0.000000001 α`, `1,234 α`; exact, trailing zeros dropped. */
export function formatAlpha(rao: string): string {
  if (!/^\d+$/.test(rao)) return rao;
  const value = BigInt(rao);
  const whole = (value / RAO_PER_ALPHA).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = (value % RAO_PER_ALPHA).toString().padStart(9, '0').replace(/0+$/, '');
  return `${whole}${fraction ? `.${fraction}` : ''} α`;
}

/** A fraction (0..1) as a percentage with up to two decimals: `12.5 %`, `100 %`, `< 0.01 %` for a tiny positive share. */
export function formatPercent(fraction: number | null | undefined): string {
  if (fraction === null || fraction === undefined || Number.isNaN(fraction)) return '—';
  if (fraction > 0 && fraction < 0.0001) return '< 0.01 %';
  return `${Number((fraction * 100).toFixed(2))} %`;
}

/** `1 competition`, `2 competitions`. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
