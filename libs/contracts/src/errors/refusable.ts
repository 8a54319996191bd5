import type { ApiError } from './api-error';

/**
 * What a transaction answers when its refusal changed state (a claim found past its TTL is expired):
 * the refusal is returned, so the change commits, and thrown only after the commit by `orRefused`.
 */
export type Refusable<T> = { value: T } | { refusal: ApiError };

/** The committed outcome's value, or its refusal thrown. */
export function orRefused<T>(outcome: Refusable<T>): T {
  if ('refusal' in outcome) throw outcome.refusal;
  return outcome.value;
}
