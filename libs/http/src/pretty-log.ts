import type { DestinationStream } from 'pino';

/** `LOG_FORMAT`: JSON lines for deployments (the default), readable lines for a person at a terminal. */
export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO ', 40: 'WARN ', 50: 'ERROR', 60: 'FATAL' };
/** Fields every line has, or that the line's head already shows. */
const HEAD_FIELDS = new Set(['level', 'time', 'msg', 'service', 'name', 'pid', 'hostname', 'context', 'err', 'req', 'res', 'responseTime', 'reqId']);

function value(v: unknown): string {
  if (typeof v === 'string') return /[\s"=]/.test(v) || v === '' ? JSON.stringify(v) : v;
  return JSON.stringify(v) ?? String(v);
}

function clock(time: unknown): string {
  const date = typeof time === 'string' || typeof time === 'number' ? new Date(time) : new Date();
  return date.toISOString().slice(11, 23);
}

/** One pino JSON line as `12:00:01.234 INFO  service  message  key=value …`; a stack only at error and above. */
export function formatLogLine(line: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  const level = typeof entry.level === 'number' ? entry.level : 30;
  const parts = [clock(entry.time), LEVELS[level] ?? String(level), String(entry.service ?? entry.name ?? '')];
  if (typeof entry.context === 'string') parts.push(`[${entry.context}]`);
  const req = entry.req as { method?: string; url?: string } | undefined;
  const res = entry.res as { statusCode?: number } | undefined;
  if (req?.method) parts.push(`${req.method} ${req.url ?? ''}`);
  if (res?.statusCode !== undefined) parts.push(String(res.statusCode));
  if (typeof entry.responseTime === 'number') parts.push(`${entry.responseTime.toFixed(1)}ms`);
  if (typeof entry.msg === 'string') parts.push(entry.msg);
  const fields = Object.entries(entry)
    .filter(([key]) => !HEAD_FIELDS.has(key))
    .map(([key, v]) => `${key}=${value(v)}`);
  const err = entry.err as { message?: string; stack?: string } | undefined;
  if (err?.message && !(typeof entry.msg === 'string' && entry.msg.includes(err.message))) fields.push(`error=${value(err.message)}`);
  let text = `${parts.join('  ')}${fields.length > 0 ? `  ${fields.join(' ')}` : ''}\n`;
  if (level >= 50 && err?.stack) text += `${err.stack.replace(/^/gm, '    ')}\n`;
  return text;
}

/** A pino destination that writes each JSON line as a readable one to `fd`. */
export function prettyDestination(fd: 1 | 2): DestinationStream {
  const out = fd === 1 ? process.stdout : process.stderr;
  return {
    write(line: string) {
      out.write(formatLogLine(line));
    },
  };
}
