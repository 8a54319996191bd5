import { ErrorCode } from '@rcs/contracts';
import { isDatabaseUnavailable } from '@rcs/persistence';
import { isRedisUnavailable } from '@rcs/queue';
import type { ErrorResponse } from './error-response';

/** What a 503 for a missing dependency tells clients to wait before they retry (seconds). */
export const DEPENDENCY_RETRY_AFTER_SECONDS = 5;

/**
 * The one place where connection-level failures of a backing service become 503s (DECISIONS.md §1):
 * `database_unavailable` or `redis_unavailable` with `Retry-After`, as /readyz reports them, instead
 * of a 500. Null for any other error.
 */
export function dependencyUnavailable(exception: unknown): ErrorResponse | null {
  if (isDatabaseUnavailable(exception)) {
    return unavailable(ErrorCode.DatabaseUnavailable, 'The database is not reachable right now; retry shortly.');
  }
  if (isRedisUnavailable(exception)) {
    return unavailable(ErrorCode.RedisUnavailable, 'Redis is not reachable right now; retry shortly.');
  }
  return null;
}

function unavailable(code: ErrorCode, message: string): ErrorResponse {
  return {
    status: 503,
    body: { detail: { error: code, message } },
    headers: { 'Retry-After': String(DEPENDENCY_RETRY_AFTER_SECONDS) },
    internal: false,
  };
}
