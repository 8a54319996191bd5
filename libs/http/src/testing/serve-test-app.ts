import type { DynamicModule } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createHttpApp, listen } from '../http-app';
import { createLogger } from '../logger';
import type { OpenApiOptions } from '../openapi';

export interface ServeTestAppOptions {
  /** The service name its logs carry. */
  name: string;
  logLevel: string;
  openApi: OpenApiOptions;
  /** Runs once the app has closed: the test's own database and Redis keys go. */
  release: () => Promise<void>;
}

export interface ServedTestApp {
  app: NestFastifyApplication;
  /** Base URL, e.g. http://127.0.0.1:40123 */
  url: string;
  /** Closes the app, then releases what the test gave it. */
  close(): Promise<void>;
}

/** An app module served in-process for a test as its service runs it (the shared HTTP behaviour), on a free loopback port. */
export async function serveTestApp(module: DynamicModule, options: ServeTestAppOptions): Promise<ServedTestApp> {
  const app = await createHttpApp(module, { logger: createLogger({ level: options.logLevel, name: options.name }), openApi: options.openApi });
  const url = await listen(app, 0, '127.0.0.1');
  return {
    app,
    url,
    close: async () => {
      await app.close();
      await options.release();
    },
  };
}
