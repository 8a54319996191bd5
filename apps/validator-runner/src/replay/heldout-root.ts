import { createHash } from 'node:crypto';
import { lstat, mkdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, sep } from 'node:path';

/**
 * The BitSota profile's private held-out (DECISIONS §15): a prefetched shard turned into their manifest and
 * root on the host, before the sandbox. A tar (detected by content) is unpacked into a fresh root (regular
 * files and directories only; no absolute names, `..`, links or devices; total ≤ maxBytes) that must hold
 * `manifest.json`; a JSON document is the manifest itself. Every `path`/`file` entry must resolve inside the
 * root to a non-empty UTF-8 file. Any failure is a HeldoutRootError (the validator's side).
 */
export class HeldoutRootError extends Error {
  override readonly name = 'HeldoutRootError';
}

export interface HeldoutRoot {
  root: string;
  manifest: string;
  /** Documents the manifest lists (inline and files). */
  documents: number;
}

const BLOCK = 512;
const MANIFEST = 'manifest.json';

/** Unpacks or copies `shard` into the fresh directory `root` and checks the manifest it holds. */
export async function prepareHeldoutRoot(shard: string, root: string, maxBytes: number): Promise<HeldoutRoot> {
  const bytes = await readFile(shard);
  await mkdir(root, { recursive: true });
  if (isTar(bytes)) {
    await unpackTar(bytes, root, maxBytes);
  } else {
    if (parseJson(bytes) === undefined) throw new HeldoutRootError('the private held-out shard is neither a tar archive nor a JSON manifest');
    await writeFile(join(root, MANIFEST), bytes);
  }
  return checkHeldoutRoot(root);
}

/** Checks the manifest.json a prepared root holds and every file it names. */
export async function checkHeldoutRoot(root: string): Promise<HeldoutRoot> {
  const manifest = join(root, MANIFEST);
  const stat = await lstat(manifest).catch(() => null);
  if (stat === null || !stat.isFile()) throw new HeldoutRootError(`the private held-out archive holds no ${MANIFEST}`);
  const documents = await checkManifest(parseJson(await readFile(manifest)), root);
  return { root, manifest, documents };
}

function isTar(bytes: Buffer): boolean {
  return bytes.length >= BLOCK && bytes.subarray(257, 262).toString('latin1') === 'ustar';
}

function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes)) as unknown;
  } catch {
    return undefined;
  }
}

function field(header: Buffer, start: number, length: number): string {
  const raw = header.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw.subarray(0, end === -1 ? raw.length : end).toString('utf8');
}

function octal(header: Buffer, start: number, length: number): number {
  if ((header[start] & 0x80) !== 0) throw new HeldoutRootError('the private held-out archive uses a size too large to unpack');
  const text = field(header, start, length).trim();
  const value = text === '' ? 0 : parseInt(text, 8);
  if (!Number.isSafeInteger(value) || value < 0) throw new HeldoutRootError('the private held-out archive has a malformed header');
  return value;
}

/** The `path` record of a pax extended header, if any. */
function paxPath(data: Buffer): string | null {
  let path: string | null = null;
  let offset = 0;
  while (offset < data.length) {
    const space = data.indexOf(0x20, offset);
    if (space === -1) break;
    const length = parseInt(data.subarray(offset, space).toString('latin1'), 10);
    if (!Number.isSafeInteger(length) || length <= 0) throw new HeldoutRootError('the private held-out archive has a malformed pax header');
    const record = data.subarray(space + 1, offset + length - 1).toString('utf8');
    const equals = record.indexOf('=');
    if (record.slice(0, equals) === 'path') path = record.slice(equals + 1);
    offset += length;
  }
  return path;
}

/** A member name as a relative path inside the root, or a HeldoutRootError. */
function safeName(name: string): string {
  const parts = name.split('/').filter((part) => part !== '' && part !== '.');
  if (name.startsWith('/') || parts.includes('..')) throw new HeldoutRootError(`the private held-out archive has an unsafe member name "${name}"`);
  return parts.join('/');
}

async function unpackTar(bytes: Buffer, root: string, maxBytes: number): Promise<void> {
  let offset = 0;
  let total = 0;
  let longName: string | null = null;
  while (offset + BLOCK <= bytes.length) {
    const header = bytes.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) return;
    const size = octal(header, 124, 12);
    const type = String.fromCharCode(header[156] || 0x30);
    const dataStart = offset + BLOCK;
    const data = bytes.subarray(dataStart, dataStart + size);
    if (data.length < size) throw new HeldoutRootError('the private held-out archive is truncated');
    offset = dataStart + Math.ceil(size / BLOCK) * BLOCK;
    if (type === 'x' || type === 'L') {
      longName = type === 'x' ? paxPath(data) : field(data, 0, data.length);
      continue;
    }
    if (type === 'g') continue;
    const prefix = field(header, 345, 155);
    const name = safeName(longName ?? (prefix === '' ? field(header, 0, 100) : `${prefix}/${field(header, 0, 100)}`));
    longName = null;
    if (name === '') continue;
    const target = join(root, name);
    if (type === '5') {
      await mkdir(target, { recursive: true });
    } else if (type === '0' || type === '7') {
      total += size;
      if (total > maxBytes) throw new HeldoutRootError(`the private held-out archive unpacks to more than ${maxBytes} bytes`);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, data, { flag: 'wx' }).catch((error: NodeJS.ErrnoException) => {
        throw new HeldoutRootError(`the private held-out archive member "${name}" could not be written (${error.code ?? 'error'})`);
      });
    } else {
      throw new HeldoutRootError(`the private held-out archive member "${name}" is not a regular file or directory (type ${type})`);
    }
  }
  throw new HeldoutRootError('the private held-out archive ends without its end-of-archive blocks');
}

type Entry = { kind: 'text' } | { kind: 'file'; path: string; sha256?: string };

function entryOf(value: unknown, where: string): Entry {
  if (typeof value === 'string' && value.trim() !== '') return { kind: 'text' };
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const object = value as Record<string, unknown>;
    if (typeof object.text === 'string' && object.text.trim() !== '') return { kind: 'text' };
    const path = object.path ?? object.file;
    if (typeof path === 'string' && path !== '') {
      if (object.sha256 !== undefined && typeof object.sha256 !== 'string') throw new HeldoutRootError(`manifest entry ${where} has a non-string sha256`);
      return { kind: 'file', path, ...(typeof object.sha256 === 'string' ? { sha256: object.sha256.toLowerCase() } : {}) };
    }
  }
  throw new HeldoutRootError(`manifest entry ${where} is neither a non-empty string, {"text"} nor {"path"|"file"}`);
}

/** The entries of a list, or of each selector of a selector → entries object. */
function entriesOf(value: unknown, where: string): Entry[] {
  if (Array.isArray(value)) return value.map((item, index) => entryOf(item, `${where}[${index}]`));
  if (typeof value === 'object' && value !== null) return Object.entries(value).flatMap(([key, item]) => entriesOf(item, `${where}.${key}`));
  throw new HeldoutRootError(`manifest ${where} is neither a list of entries nor selectors of entries`);
}

/** Checks every entry of their manifest format; answers the number of documents. */
async function checkManifest(manifest: unknown, root: string): Promise<number> {
  let entries: Entry[];
  if (Array.isArray(manifest)) {
    entries = entriesOf(manifest, 'list');
  } else if (typeof manifest === 'object' && manifest !== null) {
    const object = manifest as Record<string, unknown>;
    const keys = ['datasets', 'categories', 'documents'].filter((key) => object[key] !== undefined);
    if (keys.length === 0) throw new HeldoutRootError('the manifest has none of datasets, categories or documents');
    entries = keys.flatMap((key) => entriesOf(object[key], key));
  } else {
    throw new HeldoutRootError('the manifest is neither a JSON object nor a list');
  }
  if (entries.length === 0) throw new HeldoutRootError('the manifest lists no documents');
  const realRoot = await realpath(root);
  for (const entry of entries) if (entry.kind === 'file') await checkFile(realRoot, entry);
  return entries.length;
}

async function checkFile(root: string, entry: { path: string; sha256?: string }): Promise<void> {
  if (isAbsolute(entry.path)) throw new HeldoutRootError(`manifest path "${entry.path}" is absolute`);
  const real = await realpath(join(root, entry.path)).catch(() => null);
  const rel = real === null ? null : relative(root, real);
  if (rel === null || rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
    throw new HeldoutRootError(`manifest path "${entry.path}" does not resolve to a file inside the root`);
  }
  const stat = await lstat(real as string);
  if (!stat.isFile() || stat.size === 0) throw new HeldoutRootError(`manifest path "${entry.path}" is not a non-empty regular file`);
  const bytes = await readFile(real as string);
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new HeldoutRootError(`manifest path "${entry.path}" is not UTF-8`);
  }
  if (entry.sha256 !== undefined && createHash('sha256').update(bytes).digest('hex') !== entry.sha256) {
    throw new HeldoutRootError(`manifest path "${entry.path}" does not have the sha256 the manifest gives`);
  }
}
