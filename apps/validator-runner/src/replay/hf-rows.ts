import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { HeldoutRootError } from './heldout-root';

/**
 * Hugging Face row sources of the BitSota profile (DECISIONS §15): `AUTORESEARCH_HELDOUT_SOURCES_JSON` lists row
 * specs that the host fetches before the sandbox from RUNNER_HF_ROWS_URL (the datasets-server `rows` endpoint's
 * shape: `?dataset&config&split&offset&length&revision` → `{"rows": [{"row": {column: value}}]}`), at most 100
 * rows a page, each at a pinned revision; it writes `rows/<n>.txt` and a manifest of `path` entries. The sources
 * and their token never enter the sandbox. Any failure is a HeldoutRootError (the validator's side).
 */
export const DEFAULT_HF_ROWS_URL = 'https://datasets-server.huggingface.co/rows';
const PAGE_ROWS = 100;
const MAX_ROWS_PER_SOURCE = 10_000;

export interface RowSpec {
  dataset: string;
  config: string;
  split: string;
  revision: string;
  columns: string[];
  offset: number;
  rows: number;
  rotate: boolean;
}

export interface HfRowsOptions {
  rowsUrl: string;
  token: string | null;
  /** The job's rotation slot: a `rotate` source starts `slot × rows` further on. */
  slot: number | null;
  signal: AbortSignal;
}

function bad(index: number, problem: string): HeldoutRootError {
  return new HeldoutRootError(`held-out row source ${index} ${problem}`);
}

/** The row specs of the sources JSON (a list, or `{"sources": [...]}`); refuses what it cannot fetch exactly. */
export function parseRowSources(json: string): RowSpec[] {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    throw new HeldoutRootError('the held-out row sources are not JSON');
  }
  const list = Array.isArray(value) ? value : typeof value === 'object' && value !== null ? (value as Record<string, unknown>).sources : undefined;
  if (!Array.isArray(list) || list.length === 0) throw new HeldoutRootError('the held-out row sources are not a non-empty list');
  return list.map((item: unknown, index) => {
    if (typeof item !== 'object' || item === null) throw bad(index, 'is not an object');
    const spec = item as Record<string, unknown>;
    const text = (key: string) => (typeof spec[key] === 'string' && (spec[key] as string).trim() !== '' ? (spec[key] as string).trim() : null);
    const dataset = text('dataset');
    if (dataset === null || !/^[\w.-]+\/[\w.-]+$/.test(dataset)) throw bad(index, 'names no dataset "owner/name"');
    const split = text('split');
    if (split === null) throw bad(index, 'names no split');
    const revision = text('revision');
    if (revision === null) throw bad(index, 'has no pinned revision');
    const columns = Array.isArray(spec.text_columns) ? spec.text_columns : [spec.text_column ?? 'text'];
    if (columns.length === 0 || !columns.every((c): c is string => typeof c === 'string' && c !== '')) throw bad(index, 'has no text column');
    const offset = spec.offset ?? 0;
    const rows = spec.row_count ?? spec.limit;
    if (!Number.isInteger(offset) || (offset as number) < 0) throw bad(index, 'has an offset that is not a non-negative integer');
    if (!Number.isInteger(rows) || (rows as number) < 1 || (rows as number) > MAX_ROWS_PER_SOURCE) throw bad(index, `has a row_count that is not an integer in 1..${MAX_ROWS_PER_SOURCE}`);
    return { dataset, config: text('config') ?? 'default', split, revision, columns, offset: offset as number, rows: rows as number, rotate: spec.rotate === true };
  });
}

/** Fetches every source's rows page by page into `root` (rows/<n>.txt) and writes their manifest; answers the document count. */
export async function fetchRowSources(specs: RowSpec[], root: string, options: HfRowsOptions): Promise<number> {
  await mkdir(join(root, 'rows'), { recursive: true });
  const entries: { path: string; dataset: string }[] = [];
  for (const [index, spec] of specs.entries()) {
    const start = spec.offset + (spec.rotate && options.slot !== null ? options.slot * spec.rows : 0);
    for (let done = 0; done < spec.rows; ) {
      const length = Math.min(PAGE_ROWS, spec.rows - done);
      const page = await fetchPage(spec, start + done, length, index, options);
      for (const row of page) {
        const path = `rows/${entries.length}.txt`;
        await writeFile(join(root, path), row);
        entries.push({ path, dataset: spec.dataset });
      }
      if (page.length < length) break;
      done += length;
    }
  }
  if (entries.length === 0) throw new HeldoutRootError('the held-out row sources gave no rows');
  await writeFile(join(root, 'manifest.json'), `${JSON.stringify({ documents: entries }, null, 1)}\n`);
  return entries.length;
}

async function fetchPage(spec: RowSpec, offset: number, length: number, index: number, options: HfRowsOptions): Promise<string[]> {
  const url = new URL(options.rowsUrl);
  for (const [key, value] of Object.entries({ dataset: spec.dataset, config: spec.config, split: spec.split, offset: String(offset), length: String(length), revision: spec.revision })) {
    url.searchParams.set(key, value);
  }
  let body: unknown;
  try {
    const response = await fetch(url, { headers: options.token === null ? {} : { authorization: `Bearer ${options.token}` }, signal: options.signal, redirect: 'error' });
    if (!response.ok) throw bad(index, `answered ${response.status}`);
    body = await response.json();
  } catch (error) {
    if (error instanceof HeldoutRootError) throw error;
    throw bad(index, `could not be fetched (${(error as Error).name})`);
  }
  const rows = typeof body === 'object' && body !== null ? (body as { rows?: unknown }).rows : undefined;
  if (!Array.isArray(rows)) throw bad(index, 'answered without a rows list');
  return rows.map((item: unknown) => {
    const row = typeof item === 'object' && item !== null ? (item as { row?: unknown }).row : undefined;
    if (typeof row !== 'object' || row === null) throw bad(index, 'answered a row without its columns');
    const parts = spec.columns.map((column) => (row as Record<string, unknown>)[column]);
    if (!parts.every((part): part is string => typeof part === 'string')) throw bad(index, 'answered a row whose text column is not text');
    const text = parts.join('\n');
    if (text.trim() === '') throw bad(index, 'answered an empty document');
    return text;
  });
}
