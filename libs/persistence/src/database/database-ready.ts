import { performance } from 'node:perf_hooks';
import type { DataSource } from 'typeorm';

export interface ReadinessResult {
  ok: boolean;
  error?: string;
}

/**
 * A deadline timer that fired this much later than asked was held back by the process itself (a
 * synchronous stretch of CPU work: a rollover's tree, a snapshot's parse), not by the database.
 */
const lateBy = (timeoutMs: number) => Math.max(timeoutMs / 2, 100);

/**
 * `SELECT 1` with a deadline, for /readyz and /health. The deadline counts only time in which the
 * process could have read the answer: Node runs due timers before it reads sockets, so after the event
 * loop was blocked longer than the deadline, the timer fires before the answer that arrived meanwhile
 * is read, and the probe would say "no answer" about a database that had answered (issue 37). A timer
 * that fires late by more than half the deadline (at least 100 ms) is therefore re-armed for a full deadline from now;
 * a database that really does not answer still fails it, one loop-free deadline later.
 */
export async function databaseReady(dataSource: DataSource, timeoutMs = 1000): Promise<ReadinessResult> {
  if (!dataSource.isInitialized) return { ok: false, error: 'data source is not initialized' };
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<ReadinessResult>((resolve) => {
    const arm = () => {
      const due = performance.now() + timeoutMs;
      timer = setTimeout(() => {
        if (performance.now() - due > lateBy(timeoutMs)) arm();
        else resolve({ ok: false, error: `no answer within ${timeoutMs} ms` });
      }, timeoutMs);
    };
    arm();
  });
  const probe = dataSource.query('SELECT 1').then(
    (): ReadinessResult => ({ ok: true }),
    (error: unknown): ReadinessResult => ({ ok: false, error: error instanceof Error ? error.message : String(error) }),
  );
  try {
    return await Promise.race([probe, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
