import { InvalidResponseError } from './errors';

/** What one field of an answer must be; `?` also allows null. An array of strings: one of those values. */
export type FieldKind = 'string' | 'string?' | 'number' | 'number?' | 'boolean' | 'object' | 'object?' | 'array' | 'strings' | readonly string[];

/**
 * The fields of a contract DTO that a client reads, with their kinds: the names are checked against the DTO by the
 * compiler, the values against the answer at run time (as the runner's answers are). Unknown properties are
 * tolerated, so a newer coordinator does not break older clients.
 */
export type AnswerShape<T> = { readonly [K in keyof T]?: FieldKind };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function fieldProblem(value: unknown, kind: FieldKind): string | null {
  if (typeof kind !== 'string') return typeof value === 'string' && kind.includes(value) ? null : `must be one of ${kind.join(', ')}`;
  if (kind.endsWith('?') && value === null) return null;
  switch (kind) {
    case 'string':
    case 'string?':
      return typeof value === 'string' ? null : `must be a string${kind === 'string?' ? ' or null' : ''}`;
    case 'number':
    case 'number?':
      return typeof value === 'number' && Number.isFinite(value) ? null : `must be a number${kind === 'number?' ? ' or null' : ''}`;
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be a boolean';
    case 'object':
    case 'object?':
      return isObject(value) ? null : `must be an object${kind === 'object?' ? ' or null' : ''}`;
    case 'array':
      return Array.isArray(value) ? null : 'must be an array';
    case 'strings':
      return Array.isArray(value) && value.every((item) => typeof item === 'string') ? null : 'must be an array of strings';
  }
}

/** The problems of `document` against `shape` (empty when it conforms); `at` prefixes each field's name. */
export function shapeProblems<T>(document: unknown, shape: AnswerShape<T>, at = ''): string[] {
  if (!isObject(document)) return [`${at || 'the answer'} must be a JSON object`];
  const prefix = at ? `${at}.` : '';
  return Object.entries(shape).flatMap(([name, kind]) => {
    const problem = fieldProblem(document[name], kind as FieldKind);
    return problem === null ? [] : [`${prefix}${name} ${problem}`];
  });
}

/** The problems of a JSON array of `shape`d rows. */
export function listProblems<T>(document: unknown, shape: AnswerShape<T>): string[] {
  if (!Array.isArray(document)) return ['the answer must be a JSON array'];
  return document.flatMap((row: unknown, i) => shapeProblems(row, shape, `[${i}]`));
}

/** `document` typed as `T` once it has no problems; else `InvalidResponseError` naming them and the path. */
export function checkedAnswer<T>(path: string, document: unknown, problems: string[]): T {
  if (problems.length > 0) throw new InvalidResponseError(path.split('?')[0] ?? path, problems);
  return document as T;
}
