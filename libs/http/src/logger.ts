import { LoggerService } from '@nestjs/common';
import pino, { DestinationStream, Logger } from 'pino';
import { LogFormat, prettyDestination } from './pretty-log';

/**
 * One pino instance per process: Fastify request logs and Nest logs share it, one line each: JSON
 * (`format` json, the default) or readable (`pretty`, what `npm start` asks for) on stdout, or on
 * stderr with `fd` 2.
 */
export function createLogger(options: { level: string; name: string; format?: LogFormat; fd?: 1 | 2; destination?: DestinationStream }): Logger {
  const fd = options.fd ?? 1;
  const destination = options.destination ?? (options.format === 'pretty' ? prettyDestination(fd) : pino.destination({ dest: fd, sync: false }));
  // JSON asynchronously: a request never waits for stdout; pino flushes what is buffered when the process exits.
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
    destination,
  );
}

const FRAMEWORK_CONTEXTS = new Set(['NestFactory', 'InstanceLoader', 'RoutesResolver', 'RouterExplorer', 'NestApplication']);

/** Nest's LoggerService on top of pino, so framework messages are JSON lines too. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...rest: unknown[]): void {
    // Nest's boot chatter (a line per module and route) is detail; what the app says stays at info.
    const context = rest[rest.length - 1];
    this.write(typeof context === 'string' && FRAMEWORK_CONTEXTS.has(context) ? 'debug' : 'info', message, rest);
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
