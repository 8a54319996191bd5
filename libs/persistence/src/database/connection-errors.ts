/**
 * Whether an error means the database cannot be reached right now (refused, terminated, shutting
 * down, starting up, timed out connecting), as opposed to a failed query. Requests that hit one
 * answer 503 `database_unavailable` instead of 500 (DECISIONS.md §1).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  // TypeORM wraps the driver's error in QueryFailedError.driverError.
  return [error, driverErrorOf(error)].some(isConnectionLevel);
}

// SQLSTATE class 08 (connection exception), 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now.
const UNAVAILABLE_SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123])$/;
// Socket-level failures while connecting to or talking with the server.
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
// node-postgres and pg-pool raise these without a code.
const DRIVER_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
];

// Duck-typed, not `instanceof Error`: socket errors come from Node's own realm, which differs under test sandboxes.
function isConnectionLevel(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (UNAVAILABLE_SQLSTATE.test(code) || SOCKET_CODES.has(code))) return true;
  return typeof message === 'string' && DRIVER_MESSAGES.some((prefix) => message.startsWith(prefix));
}

function driverErrorOf(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? (error as { driverError?: unknown }).driverError : undefined;
}
