import { setTimeout as delay } from 'node:timers/promises';

/** A condition that did not come true in time. */
export class ConditionTimeoutError extends Error {
  constructor(what: string, timeoutMs: number, last: unknown) {
    super(`${what}: not true within ${timeoutMs} ms (last seen: ${JSON.stringify(last)})`);
    this.name = 'ConditionTimeoutError';
  }
}

/**
 * Polls `probe` until `done(value)` holds, and answers that value; a bounded wait on a condition,
 * never a sleep standing in for one. Probe errors count as "not yet" (a service coming back).
 */
export async function until<T>(what: string, probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (done(value)) return value;
      last = value;
    } catch (error) {
      last = error instanceof Error ? error.message : error;
    }
    if (Date.now() > deadline) throw new ConditionTimeoutError(what, timeoutMs, last);
    await delay(everyMs);
  }
}
