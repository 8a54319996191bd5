import type { Argv } from 'yargs';
import { answerError, queryString, ServiceAnswerError } from '@rcs/client';
import type { GlobalArgs } from '../context';
import { CliUsageError } from '../errors';
import { readLocal } from './submit';
import type { Handle } from './handle';

const METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const;

/**
 * `rcs signed-request` (BitSota's miner client has it too): any coordinator route, signed with BT-AUTH-V1 unless
 * `--unsigned`. The body is sent as the exact text given (that text is what is signed); the answer's body is printed
 * as it came, on stdout, whatever its status; a status outside 2xx exits 1 with the service's code on stderr.
 */
export function signedRequestCommand(yargs: Argv<GlobalArgs>, handle: Handle): Argv<GlobalArgs> {
  return yargs.command(
    'signed-request',
    'Call any coordinator route, signed by your hotkey (BT-AUTH-V1); prints the answer as it came',
    (y) =>
      y
        .option('method', { type: 'string', choices: METHODS, coerce: (m: string) => m.toUpperCase(), default: 'GET', describe: 'HTTP method' })
        .option('path', { type: 'string', demandOption: true, describe: 'The route, from /api/… (a query may follow ?)' })
        .option('body-json', { type: 'string', describe: 'The JSON body, as text (sent and signed exactly as given)' })
        .option('body-file', { type: 'string', describe: 'A file holding the JSON body' })
        .option('params-json', { type: 'string', describe: 'Query parameters as a JSON object, e.g. {"limit": 5}' })
        .option('unsigned', { type: 'boolean', default: false, describe: 'Send no signature headers (public routes)' })
        .conflicts('body-json', 'body-file'),
    handle(async (ctx, args) => {
      const body = args['body-file'] !== undefined ? readLocal(args['body-file'], '--body-file') : args['body-json'];
      if (body !== undefined) jsonOrUsage(body, args['body-file'] !== undefined ? '--body-file' : '--body-json');
      const path = requestPath(args.path, args['params-json']);
      const api = await ctx.coordinator({ signed: !args.unsigned });
      const answer = await api.raw(args.method as (typeof METHODS)[number], path, body, !args.unsigned);
      if (answer.text !== '') ctx.io.stdout(answer.text.endsWith('\n') ? answer.text : `${answer.text}\n`);
      if (answer.status < 200 || answer.status > 299) {
        const error = answerError(answer, path.split('?')[0] ?? path);
        // The body is printed above already: the report adds only its line on stderr.
        throw new ServiceAnswerError(error.status, error.code, error.detail, error.path);
      }
      if (!ctx.json) ctx.note(`HTTP ${answer.status}${args.unsigned ? '' : ` (signed by ${ctx.signerHotkey()})`}`);
    }),
  );
}

/** The path with `--params-json` appended as a query string (after any query the path already has). */
export function requestPath(path: string, paramsJson: string | undefined): string {
  if (!path.startsWith('/')) throw new CliUsageError(`--path ${path}: must start with / (e.g. /api/v1/tasks)`);
  if (paramsJson === undefined) return path;
  const params = jsonOrUsage(paramsJson, '--params-json');
  if (typeof params !== 'object' || params === null || Array.isArray(params)) throw new CliUsageError('--params-json must be a JSON object');
  const query: Record<string, string | number | undefined> = {};
  for (const [name, value] of Object.entries(params)) {
    if (typeof value === 'object' && value !== null) throw new CliUsageError(`--params-json: ${name} must be a string, a number or a boolean`);
    query[name] = value === null ? undefined : String(value);
  }
  const text = queryString(query);
  return text === '' ? path : `${path}${path.includes('?') ? `&${text.slice(1)}` : text}`;
}

function jsonOrUsage(text: string, flag: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new CliUsageError(`${flag} is not JSON`);
  }
}
