import { Logger } from '@nestjs/common';

/** The part of a Nest `LoggerService` (or nestjs-pino `Logger`) the database code writes to. */
export interface DatabaseLogger {
  log(message: string): void;
  warn(message: string): void;
}

export function defaultDatabaseLogger(): DatabaseLogger {
  return new Logger('Database');
}
