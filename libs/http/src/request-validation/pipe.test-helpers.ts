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
