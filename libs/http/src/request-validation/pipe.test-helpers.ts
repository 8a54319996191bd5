import type { Paramtype, Type } from '@nestjs/common';
import { ApiValidationError, ValidationErrorItem } from '@rcs/contracts';
import { createValidationPipe } from './validation.pipe';

/** Test harness: runs a value through the real pipe as Nest would for a `@Body()`/`@Query()`/`@Param()` DTO. */
const pipe = createValidationPipe();

export async function accept<T>(metatype: Type<T>, value: unknown, type: Paramtype = 'body'): Promise<T> {
  return (await pipe.transform(value, { type, metatype })) as T;
}

/** The 422 items the pipe raises; fails the test when the value is accepted. */
export async function reject(metatype: Type<unknown>, value: unknown, type: Paramtype = 'body'): Promise<ValidationErrorItem[]> {
  try {
    await pipe.transform(value, { type, metatype });
  } catch (error) {
    if (error instanceof ApiValidationError) return error.items;
    throw error;
  }
  throw new ExpectedRejection(metatype.name);
}

class ExpectedRejection extends Error {
  constructor(dto: string) {
    super(`expected ${dto} to be rejected`);
  }
}

/** One bound check: `error` absent means the value must be accepted as is. */
export interface BoundCase {
  value: unknown;
  error?: { type: string; loc?: (string | number)[]; ctx?: Record<string, unknown> };
}

/**
 * For each case: `valid` with `field` set to the value is either accepted (and the field keeps the
 * value) or rejected with exactly one item of that type, at `['body', field]` unless the case says.
 */
export async function expectBounds(metatype: Type<unknown>, valid: Record<string, unknown>, field: string, cases: BoundCase[]): Promise<void> {
  for (const { value, error } of cases) {
    const body = { ...valid, [field]: value };
    if (!error) {
      const dto = (await accept(metatype, body)) as Record<string, unknown>;
      expect({ field, value: dto[field] }).toEqual({ field, value });
      continue;
    }
    const items = await reject(metatype, body);
    const expected: Record<string, unknown> = { type: error.type, loc: error.loc ?? ['body', field] };
    if (error.ctx) expected['ctx'] = error.ctx;
    // toMatchObject compares array lengths too: exactly one item.
    expect({ field, value, items }).toMatchObject({ field, value, items: [expected] });
  }
}

export const text = (length: number): string => 'x'.repeat(length);

export const tooShort = (min: number) => ({ type: 'string_too_short', ctx: { min_length: min } });
export const tooLong = (max: number) => ({ type: 'string_too_long', ctx: { max_length: max } });

/** A string field's length bounds: one short of `min` and one past `max` refused, both bounds accepted. */
export function lengthBounds(min: number, max: number): BoundCase[] {
  return [{ value: text(min - 1), error: tooShort(min) }, { value: text(min) }, { value: text(max) }, { value: text(max + 1), error: tooLong(max) }];
}

export const ge = (bound: number) => ({ type: 'greater_than_equal', ctx: { ge: bound } });
export const le = (bound: number) => ({ type: 'less_than_equal', ctx: { le: bound } });

/** A number field's bounds: one below `min` and one above `max` refused, both bounds accepted. */
export function rangeBounds(min: number, max: number): BoundCase[] {
  return [{ value: min - 1, error: ge(min) }, { value: min }, { value: max }, { value: max + 1, error: le(max) }];
}
