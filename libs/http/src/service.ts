import { DynamicModule, Type } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import { cryptoReady } from '@rcs/auth';
import { ConfigError, EnvReader, LOG_LEVELS } from '@rcs/config';
import { createHttpApp, listen } from './http-app';
import { createLogger } from './logger';
import { LOG_FORMATS, LogFormat } from './pretty-log';
import { OpenApiOptions } from './openapi';

/** What every HTTP service reads: where to listen and how much to log. */
export interface ServiceBaseConfig {
  host: string;
  port: number;
  logLevel: string;
  /** `LOG_FORMAT`: `json` (default) or `pretty`. */
  logFormat: LogFormat;
  /** `WEB_URL`: where the web UI is, for the `/` index; null when unset. */
  webUrl: string | null;
}

export function readServiceBaseConfig(read: EnvReader, portVariable: string, defaultPort: number): ServiceBaseConfig {
  return {
    host: read.string('HOST', '0.0.0.0'),
    port: read.int(portVariable, defaultPort, 0, 65535),
    logLevel: read.oneOf('LOG_LEVEL', LOG_LEVELS, 'info'),
    logFormat: read.oneOf('LOG_FORMAT', LOG_FORMATS, 'json'),
    webUrl: read.optional('WEB_URL')?.replace(/\/+$/, '') ?? null,
  };
}

/** Admin tokens of a service with admin routes: plain ones and SHA-256 digests, either list may be empty. */
export interface AdminTokenConfig {
  adminTokens: string[];
  /** Lower-case hex. */
  adminTokenSha256: string[];
}

export function readAdminTokenConfig(read: EnvReader): AdminTokenConfig {
  const adminTokenSha256 = read.list('ADMIN_TOKEN_SHA256').map((digest) => digest.toLowerCase());
  for (const digest of adminTokenSha256) {
    if (!/^[0-9a-f]{64}$/.test(digest)) read.problems.push('ADMIN_TOKEN_SHA256 entries must be 64 hex characters');
  }
  return { adminTokens: read.list('ADMIN_TOKENS'), adminTokenSha256 };
}

/** An app's root module, built for one validated configuration. */
export interface ServiceModule<C> {
  forRoot(config: C): Type<unknown> | DynamicModule;
}

export interface RunServiceOptions<C extends ServiceBaseConfig> {
  name: string;
  loadConfig: () => C;
  openApi: OpenApiOptions;
  /** Routes of this service besides docs and metrics that `/` points at. */
  links?: Record<string, string>;
  /** Routes polled all the time besides the probes, logged at debug. */
  polledRoutes?: string[];
}

/**
 * Boots one service process from its root module: validated config, JSON logs, the sr25519 WebAssembly
 * every service signs or verifies with, the shared HTTP behaviour, listen.
 * A bad configuration prints every problem and exits 1 without a stack trace.
 */
export async function runService<C extends ServiceBaseConfig>(appModule: ServiceModule<C>, options: RunServiceOptions<C>): Promise<NestFastifyApplication> {
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
  const logger = createLogger({ level: config.logLevel, name: options.name, format: config.logFormat });
  // Under npm start's launcher, Ctrl-C is the launcher's to answer from the first moment (exitOnSignals).
  const supervised = process.channel !== undefined;
  if (supervised) process.on('SIGINT', () => undefined);
  try {
    await cryptoReady();
    const app = await createHttpApp(appModule.forRoot(config), {
      logger,
      openApi: options.openApi,
      index: { service: options.name, webUrl: config.webUrl, links: options.links },
      polledRoutes: options.polledRoutes,
    });
    const url = await listen(app, config.port, config.host);
    logger.info({ url, docs: `${url}/docs` }, `${options.name} listening`);
    exitOnSignals(app, logger, supervised);
    return app;
  } catch (err) {
    logger.fatal({ err }, `${options.name} failed to start`);
    process.exit(1);
  }
}

/**
 * SIGINT/SIGTERM close the app (shutdown hooks: workers finish, connections close), then exit 0.
 *
 * Under `npm start`'s launcher (an IPC channel to it, tools/stack) a terminal's Ctrl-C reaches every
 * process of the group at once. The launcher answers it by stopping the services tier by tier with
 * SIGTERM, those that read from the others first, so the service leaves SIGINT to the launcher; and it
 * stops when that channel closes, so a launcher killed outright leaves no service behind.
 */
function exitOnSignals(app: NestFastifyApplication, logger: Logger, supervised: boolean): void {
  let closing = false;
  const stop = (reason: NodeJS.Signals | 'launcher gone') => {
    if (closing) return;
    closing = true;
    logger.info(reason === 'launcher gone' ? { reason } : { signal: reason }, 'shutting down');
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  if (!supervised) process.once('SIGINT', stop);
  else if (process.connected) process.once('disconnect', () => stop('launcher gone'));
  else stop('launcher gone'); // it went while this service was starting
  process.once('SIGTERM', stop);
}
