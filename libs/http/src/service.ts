import { DynamicModule, Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import { ConfigError, EnvReader, LOG_LEVELS } from '@rcs/config';
import { createHttpApp, listen } from './http-app';
import { createLogger } from './logger';
import { OpenApiOptions } from './openapi';

/** What every HTTP service reads: where to listen and how much to log. */
export interface ServiceBaseConfig {
  host: string;
  port: number;
  logLevel: string;
}

export function readServiceBaseConfig(read: EnvReader, portVariable: string, defaultPort: number): ServiceBaseConfig {
  return {
    host: read.string('HOST', '0.0.0.0'),
    port: read.int(portVariable, defaultPort, 0, 65535),
    logLevel: read.oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
  };
}

export interface RunServiceOptions<C extends ServiceBaseConfig> {
  name: string;
  loadConfig: () => C;
  module: (config: C) => Type<unknown> | DynamicModule;
  openApi: OpenApiOptions;
  /** Work that must finish before the app is built (e.g. WebAssembly crypto). */
  prepare?: () => Promise<void>;
}

/**
 * Boots one service process: validated config, JSON logs, the shared HTTP behaviour, listen.
 * A bad configuration prints every problem and exits 1 without a stack trace.
 */
export async function runService<C extends ServiceBaseConfig>(options: RunServiceOptions<C>): Promise<NestFastifyApplication> {
  let config: C;
  try {
    config = options.loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${options.name}: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger({ level: config.logLevel, name: options.name });
  try {
    await options.prepare?.();
    const app = await createHttpApp(options.module(config), { logger, openApi: options.openApi });
    const url = await listen(app, config.port, config.host);
    logger.info({ url, docs: `${url}/docs`, openapi: `${url}/openapi.json` }, `${options.name} listening`);
    exitOnSignals(app, logger);
    return app;
  } catch (err) {
    logger.fatal({ err }, `${options.name} failed to start`);
    process.exit(1);
  }
}

/** SIGINT/SIGTERM close the app (shutdown hooks: workers finish, connections close), then exit 0. */
function exitOnSignals(app: NestFastifyApplication, logger: Logger): void {
  let closing = false;
  const stop = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
