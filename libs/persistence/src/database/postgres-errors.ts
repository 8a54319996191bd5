import { QueryFailedError } from 'typeorm';

/** The SQLSTATE of a failed query (e.g. `23505`), or undefined for any other error. */
export function postgresErrorCode(error: unknown): string | undefined {
  if (!(error instanceof QueryFailedError)) return undefined;
  const code: unknown = (error.driverError as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/** True for a unique violation, optionally of one named constraint or index. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (postgresErrorCode(error) !== '23505') return false;
  if (constraint === undefined) return true;
  return (error as QueryFailedError<Error & { constraint?: string }>).driverError.constraint === constraint;
}
