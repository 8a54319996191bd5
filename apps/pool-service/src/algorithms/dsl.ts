import { createHash } from 'node:crypto';

// A section marker line: `# setup`, `#predict:`, `# Learn: the update` (case and spacing free, text after the colon ignored).
const SECTION_MARKER = /^#\s*(setup|predict|learn)\s*(?::.*)?$/i;
// A comment runs from `#` or `//` to the end of the line.
const COMMENT = /(#|\/\/).*$/;
// An unsigned decimal literal standing alone: not part of a name (`s0`, `v12`, `s1e5`) or of another number.
// Unambiguous (digits, then at most one `.`), so a long run of digits is matched in linear time.
const NUMBER = /(?<![\p{L}\p{N}_.])(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?(?![\p{L}\p{N}_.])/gu;
// `x = x` once whitespace is gone.
const SELF_ASSIGNMENT = /^([\p{L}_][\p{L}\p{N}_]*)=\1$/u;

/**
 * The canonical form of a DSL text, on which duplicates are judged (DECISIONS.md §11):
 * - section markers (`# setup:`, `# predict:`, `# learn:`, however spaced or cased) are kept, spelled
 *   `# setup:`; every other comment (`#` or `//` to the end of the line) and every blank line is dropped;
 * - whitespace inside statements is removed;
 * - numeric literals are printed in their shortest round-trip form (ECMAScript `Number#toString`:
 *   `0.010`, `.01` and `1e-2` are `0.01`; `2.0` is `2`). Only whole unsigned literals count, never
 *   digits inside a name; a sign is an operator, so `-0.0` stays `-0`, which is another float than `0`.
 *   A literal beyond the double range is kept as written;
 * - a self-assignment (`s8 = s8`) is dropped: it changes nothing, so adding one makes no new algorithm.
 */
export function normaliseDsl(dsl: string): string {
  const statements: string[] = [];
  for (const line of dsl.split(/\r\n|\r|\n/)) {
    const marker = SECTION_MARKER.exec(line.trim());
    if (marker !== null) {
      statements.push(`# ${marker[1].toLowerCase()}:`);
      continue;
    }
    const statement = line.replace(COMMENT, '').replace(NUMBER, shortestNumber).replace(/\s+/g, '');
    if (statement.length > 0 && !SELF_ASSIGNMENT.test(statement)) statements.push(statement);
  }
  return statements.join('\n');
}

function shortestNumber(literal: string): string {
  const value = Number(literal);
  return Number.isFinite(value) ? String(value) : literal;
}

/** SHA-256 hex of the canonical DSL (`normaliseDsl`): the duplicate check of one task type. */
export function dslHash(dsl: string): string {
  return createHash('sha256').update(normaliseDsl(dsl), 'utf8').digest('hex');
}
