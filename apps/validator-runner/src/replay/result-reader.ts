import { lstat, open, realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { isRecord, MAX_PER_ITEM } from '@rcs/contracts';

/**
 * A read result file: its finite metrics, every key it names (finite or not), its one-sentence `error` and its
 * `per_item` values; or why it could not be read.
 */
export type ResultFileRead = { metrics: Record<string, number>; named: string[]; reason?: string; perItem?: number[] } | { problem: string; tooLarge?: true };

/** The longest benchmark reason a verification's public notes carry. */
export const REASON_MAX_CHARS = 240;

/**
 * Reads the benchmark's result file: it must resolve inside the workspace (symlinks included), be a
 * regular file of at most `maxBytes`, and hold a JSON object. Its metrics are the finite numbers at the
 * top level and, when present, those of a `metrics` object (which win).
 */
export async function readResultFile(workspace: string, resultPath: string, maxBytes: number): Promise<ResultFileRead> {
  const root = await realpath(workspace);
  const candidate = resolve(root, resultPath);
  if (!inside(root, candidate)) return { problem: `result_path "${resultPath}" points outside the workspace` };
  let real: string;
  try {
    real = await realpath(candidate);
  } catch {
    return { problem: `the benchmark wrote no ${resultPath}` };
  }
  if (!inside(root, real)) return { problem: `${resultPath} resolves outside the workspace` };
  const stat = await lstat(real);
  if (!stat.isFile()) return { problem: `${resultPath} is not a regular file` };
  if (stat.size > maxBytes) return { problem: `${resultPath} is ${stat.size} bytes, more than the ${maxBytes} read`, tooLarge: true };
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(real, 'r');
  } catch {
    // The benchmark took its own permissions away (chmod 000): a runner without CAP_DAC_OVERRIDE cannot read it.
    return { problem: `${resultPath} is not readable` };
  }
  let text: string;
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(maxBytes + 1), 0, maxBytes + 1, 0);
    if (bytesRead > maxBytes) return { problem: `${resultPath} grew past ${maxBytes} bytes`, tooLarge: true };
    text = buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: `${resultPath} is not JSON` };
  }
  const metrics = metricsFromJson(value);
  if (metrics === null) return { problem: `${resultPath} is not a JSON object` };
  const object = value as Record<string, unknown>;
  const named = [...Object.keys(object), ...(isRecord(object.metrics) ? Object.keys(object.metrics) : [])];
  const reason = benchmarkReason(value);
  const perItem = perItemFromJson(value);
  return { metrics, named, ...(reason === null ? {} : { reason }), ...(perItem === null ? {} : { perItem }) };
}

/**
 * The task metric per held-out item (`per_item`: an array of 2..MAX_PER_ITEM finite numbers), for the coordinator's
 * release rule under a held-out budget (DECISIONS §17); null when absent or anything else. Posted to the coordinator
 * only, which never shows it: per item, it says what the held-out data holds.
 */
export function perItemFromJson(value: unknown): number[] | null {
  if (!isRecord(value) || !Array.isArray(value.per_item)) return null;
  const items: unknown[] = value.per_item;
  if (items.length < 2 || items.length > MAX_PER_ITEM) return null;
  return items.every((item): item is number => typeof item === 'number' && Number.isFinite(item)) ? (items as number[]) : null;
}

/**
 * A failed benchmark's one-sentence reason, from the result file's top-level `error` string, so a miner reads why
 * (an ineligible artifact: "Ineligible: 1536 of 12800 weights (12.0 %) are 4-bit rescue, over the cap of 10 %.").
 * The file is the sandbox's: only one line of printable ASCII of at most REASON_MAX_CHARS is taken (anything else
 * is no reason at all), which bounds what it can carry out as tightly as the metrics themselves are bounded.
 */
export function benchmarkReason(value: unknown): string | null {
  if (!isRecord(value) || typeof value.error !== 'string') return null;
  return publicSentence(value.error);
}

/** Sandbox text fit for public notes (from a phase without held-out data): one line of printable ASCII, at most REASON_MAX_CHARS; else null. */
export function publicSentence(text: string): string | null {
  const sentence = text.trim();
  return sentence !== '' && sentence.length <= REASON_MAX_CHARS && /^[\x20-\x7e]+$/.test(sentence) ? sentence : null;
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}

export function metricsFromJson(value: unknown): Record<string, number> | null {
  if (!isRecord(value)) return null;
  const nested = isRecord(value.metrics) ? finiteNumbers(value.metrics) : {};
  return { ...finiteNumbers(value), ...nested };
}

function finiteNumbers(object: Record<string, unknown>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, value] of Object.entries(object)) {
    if (typeof value === 'number' && Number.isFinite(value)) out[key] = value;
  }
  return out;
}

const NUMBER = String.raw`[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?`;

/** The value of the last `name=value` or `name: value` in the output, when it is a finite number. */
export function lastMetricInOutput(output: string, name: string): number | null {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`(?<![A-Za-z0-9_.-])${escaped}\\s*[=:]\\s*(${NUMBER})(?![A-Za-z0-9_.])`, 'g');
  let last: string | null = null;
  for (const match of output.matchAll(pattern)) last = match[1];
  if (last === null) return null;
  const value = Number(last);
  return Number.isFinite(value) ? value : null;
}

/**
 * Only the metrics the task names (its metric and secondary metric), in that order. The result file is written
 * by the miner's code, which can read the held-out data: any other key could carry it out through a public
 * `observed_metrics`, so none is ever posted.
 */
export function taskMetrics(metrics: Record<string, number>, names: (string | null)[]): Record<string, number> {
  const kept = names.filter((name): name is string => name !== null && Object.hasOwn(metrics, name));
  return Object.fromEntries(kept.map((name) => [name, metrics[name]]));
}
