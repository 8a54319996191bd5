export const HOTKEY_HEADER = 'X-Hotkey';
export const TIMESTAMP_HEADER = 'X-Timestamp';
export const SIGNATURE_HEADER = 'X-Signature';
export const ADMIN_TOKEN_HEADER = 'X-Admin-Token';
/** The pool-wallet's SS58 address on pool routes. */
export const POOL_KEY_HEADER = 'X-Key';

/** Request headers as Node and Fastify give them: lower-case names. */
export type RequestHeaders = Record<string, string | string[] | undefined>;

/** A single header value, or undefined when absent, empty or repeated. */
export function headerValue(headers: RequestHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

const DIGITS = /^[0-9]+$/;

/** Unix seconds of a decimal-digits timestamp within ±`maxSkewSeconds` of `nowSeconds`, else null. */
export function freshTimestamp(value: string, nowSeconds: number, maxSkewSeconds: number): number | null {
  if (!DIGITS.test(value)) return null;
  const seconds = Number(value);
  return Math.abs(nowSeconds - seconds) <= maxSkewSeconds ? seconds : null;
}
