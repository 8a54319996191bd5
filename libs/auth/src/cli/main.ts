import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { CanonicalBodyError, canonicalBody } from '../canonical-body';
import { bodySha256, buildMessage } from '../message';
import type { VectorCase } from './vector-case';

const HELP = `Usage: npm run -s auth -- message [options]

Prints the BT-AUTH-V1 message a client must sign (DECISIONS.md §2).

  message --method M --path P [--query Q] --timestamp T [--body-file F]
      Prints three labelled lines:
        canonical_body: <canonical body as a JSON string literal>
        body_sha256: <lowercase hex>
        message: <the six-line message as a JSON string literal>
      --path is the request path without "?"; --query the raw query without "?".
      Without --body-file the body is empty.

  message --vectors F
      F is shaped like ../shared/vectors/bt-auth-v1.json. Prints one JSON line per case,
      {"name","canonical_body","body_sha256","message"}, computed from its method, path,
      query, timestamp and raw_body.

Exit codes: 0 ok, 1 bad input (unreadable file, body not JSON), 2 bad usage.`;

/** Wrong flags or arguments (exit 2). */
class UsageError extends Error {}
/** Input that cannot be processed (exit 1). */
class InputError extends Error {}

function main(argv: string[]): void {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      method: { type: 'string' },
      path: { type: 'string' },
      query: { type: 'string', default: '' },
      timestamp: { type: 'string' },
      'body-file': { type: 'string' },
      vectors: { type: 'string' },
    },
  });
  if (values.help === true) {
    process.stdout.write(`${HELP}\n`);
    return;
  }
  if (positionals.length !== 1 || positionals[0] !== 'message') {
    throw new UsageError('expected the command "message"');
  }
  if (values.vectors !== undefined) {
    printVectors(values.vectors);
    return;
  }
  const { method, path, timestamp } = values;
  if (method === undefined || path === undefined || timestamp === undefined) {
    throw new UsageError('message needs --method, --path and --timestamp (or --vectors)');
  }
  if (path.includes('?')) throw new UsageError('--path must not contain "?": pass the query with --query');
  const body = values['body-file'] === undefined ? undefined : readInput(values['body-file']);
  const canonical = canonicalOrInputError(body);
  const message = buildMessage({ method, path, query: values.query, timestamp, canonicalBody: canonical });
  process.stdout.write(
    `canonical_body: ${JSON.stringify(canonical)}\nbody_sha256: ${bodySha256(canonical)}\nmessage: ${JSON.stringify(message)}\n`,
  );
}

function printVectors(file: string): void {
  const cases = parseVectors(readInput(file).toString('utf8'));
  for (const c of cases) {
    const canonical = canonicalOrInputError(c.raw_body ?? undefined);
    const { method, path, query, timestamp } = c;
    const message = buildMessage({ method, path, query, timestamp, canonicalBody: canonical });
    const line = { name: c.name, canonical_body: canonical, body_sha256: bodySha256(canonical), message };
    process.stdout.write(`${JSON.stringify(line)}\n`);
  }
}

function parseVectors(text: string): VectorCase[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    throw new InputError('vectors file is not JSON');
  }
  const cases = (doc as { cases?: unknown } | null)?.cases;
  if (!Array.isArray(cases) || !cases.every(isVectorCase)) {
    throw new InputError('vectors file needs "cases": [{name, method, path, query, timestamp, raw_body}]');
  }
  return cases;
}

function isVectorCase(c: unknown): c is VectorCase {
  if (typeof c !== 'object' || c === null) return false;
  const v = c as Record<string, unknown>;
  const strings = ['name', 'method', 'path', 'query', 'timestamp'].every((k) => typeof v[k] === 'string');
  return strings && (v.raw_body === null || typeof v.raw_body === 'string');
}

function canonicalOrInputError(body: string | Buffer | undefined): string {
  try {
    return canonicalBody(body);
  } catch (error) {
    if (error instanceof CanonicalBodyError) throw new InputError(`body is not valid JSON: ${error.message}`);
    throw error;
  }
}

function readInput(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    throw new InputError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
}

function exitCodeOf(error: unknown): number {
  if (error instanceof InputError) return 1;
  // parseArgs reports unknown or malformed flags with ERR_PARSE_ARGS_* codes.
  const code = (error as NodeJS.ErrnoException).code ?? '';
  if (error instanceof UsageError || code.startsWith('ERR_PARSE_ARGS')) return 2;
  return 1;
}

try {
  main(process.argv.slice(2));
} catch (error) {
  const exitCode = exitCodeOf(error);
  process.stderr.write(`auth: ${error instanceof Error ? error.message : String(error)}\n`);
  if (exitCode === 2) process.stderr.write('Try: npm run -s auth -- --help\n');
  process.exitCode = exitCode;
}
