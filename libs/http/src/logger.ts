import { LoggerService } from '@nestjs/common';
import pino, { DestinationStream, Logger } from 'pino';

/** One pino instance per process: Fastify request logs and Nest logs share it (JSON, one line each). */
export function createLogger(options: { level: string; name: string; destination?: DestinationStream }): Logger {
  return pino(
    {
    name: options.name,
    level: options.level,
    base: { service: options.name },
    timestamp: pino.stdTimeFunctions.isoTime,
    // Credentials never reach the log, whichever serializer picks up the headers.
    redact: {
      paths: [
        'req.headers["x-admin-token"]',
        'req.headers["x-signature"]',
        'req.headers.authorization',
        'headers["x-admin-token"]',
        'headers["x-signature"]',
      ],
      censor: '[redacted]',
    },
  },
    options.destination ?? pino.destination(1),
  );
}

/** Nest's LoggerService on top of pino, so framework messages are JSON lines too. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...rest: unknown[]): void {
    this.write('info', message, rest);
  }

  error(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }

  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }

  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }

  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('trace', message, rest);
  }

  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('fatal', message, rest);
  }

  private write(level: pino.Level, message: unknown, rest: unknown[]): void {
    // Nest passes the context (class name) as the last string argument.
    const context = rest.length > 0 && typeof rest[rest.length - 1] === 'string' ? (rest[rest.length - 1] as string) : undefined;
    const bindings: Record<string, unknown> = context ? { context } : {};
    if (message instanceof Error) {
      this.logger[level]({ ...bindings, err: message }, message.message);
    } else if (typeof message === 'object' && message !== null) {
      this.logger[level]({ ...bindings, ...(message as Record<string, unknown>) });
    } else {
      const stack = level === 'error' && typeof rest[0] === 'string' && rest.length > 1 ? rest[0] : undefined;
      this.logger[level](stack ? { ...bindings, stack } : bindings, String(message));
    }
  }
}
