import { Transform } from 'class-transformer';

const DECIMAL_NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Query strings arrive as strings: a decimal number becomes a number, anything else stays as sent
 * so the 422 item shows the caller's own input (unlike `@Type(() => Number)`, which makes `''` 0 and `'x'` NaN).
 */
export function ToNumber(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) => (typeof value === 'string' && DECIMAL_NUMBER.test(value.trim()) ? Number(value) : value), {
    toClassOnly: true,
  });
}
