import { createHash } from 'node:crypto';

/** Trimmed lines, comments (`#`, `//`) and blank lines dropped: two spellings of one algorithm normalise alike. */
export function normaliseDsl(dsl: string): string {
  return dsl
    .split(/\r\n|\r|\n/)
    .map((line) => line.replace(/(#|\/\/).*$/, '').trim())
    .filter((line) => line.length > 0)
    .join('\n');
}

/** SHA-256 hex of the normalised DSL: the duplicate check of one task type. */
export function dslHash(dsl: string): string {
  return createHash('sha256').update(normaliseDsl(dsl), 'utf8').digest('hex');
}
