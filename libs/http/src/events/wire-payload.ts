/** `leafCount` → `leaf_count`, at the type level. */
type SnakeCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Uppercase<Head> ? (Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`) : Head}${SnakeCase<Tail>}`
  : S;

/** A domain event as the public stream carries it: snake_case keys, dates as ISO-8601 strings. */
export type WirePayload<E> = { [K in keyof E & string as SnakeCase<K>]: E[K] extends Date ? string : E[K] };

/**
 * The public payload of a domain event (DECISIONS §14): the named fields, in that order, each key in
 * snake_case and a `Date` as its ISO-8601 string. Only named fields go out, so a field added to the
 * event later is not published by accident.
 */
export function wirePayload<E extends object, K extends keyof E & string>(event: E, fields: readonly K[]): WirePayload<Pick<E, K>> {
  const payload: Record<string, unknown> = {};
  for (const field of fields) {
    const value: unknown = event[field];
    payload[field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)] = value instanceof Date ? value.toISOString() : value;
  }
  return payload as WirePayload<Pick<E, K>>;
}
