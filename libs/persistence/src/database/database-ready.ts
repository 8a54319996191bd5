import type { DataSource } from 'typeorm';

export interface ReadinessResult {
  ok: boolean;
  error?: string;
}

/** `SELECT 1` with a deadline, for /readyz. */
export async function databaseReady(dataSource: DataSource, timeoutMs = 1000): Promise<ReadinessResult> {
  if (!dataSource.isInitialized) return { ok: false, error: 'data source is not initialized' };
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<ReadinessResult>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, error: `no answer within ${timeoutMs} ms` }), timeoutMs);
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
