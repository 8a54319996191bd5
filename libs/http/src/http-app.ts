import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { DynamicModule, Module, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import { installCors } from './cors';
import { HttpErrorFilter } from './error.filter';
import { registerJsonBodyParser } from './json-body';
import { answerClientError, answerFrameworkError } from './low-level-errors';
import { PinoNestLogger } from './logger';
import { AppMetrics, installHttpMetrics, MetricsModule } from './metrics';
import { OpenApiOptions, setupOpenApi } from './openapi';
import { quietPolledRoutes } from './quiet-routes';
import { installServiceIndex, ServiceIndexOptions } from './service-index';
import { OneLineRequestLog } from './request-log';
import { createValidationPipe } from './request-validation';

export const DEFAULT_BODY_LIMIT = 2 * 1024 * 1024;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export interface HttpAppOptions {
  logger: Logger;
  openApi?: OpenApiOptions;
  bodyLimit?: number;
  /** `GET /` answers this index (services started by `runService`). */
  index?: ServiceIndexOptions;
  /** Routes polled all the time besides the probes, logged at debug (e.g. the validators' scan). */
  polledRoutes?: string[];
}

/** The root around an app's module: its metrics registry is injectable in every module. */
@Module({})
class HttpAppRootModule {}

/**
 * A NestJS app on Fastify with the behaviour every service of the stack shares: JSON bodies kept
 * raw for signatures, the 422 and error shapes of DECISIONS.md §1, request ids in logs and on
 * responses, pino JSON logs, OpenAPI at /openapi.json with /docs and /redoc.
 */
export async function createHttpApp(module: Type<unknown> | DynamicModule, options: HttpAppOptions): Promise<NestFastifyApplication> {
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const adapter = new FastifyAdapter({
    loggerInstance: options.logger,
    bodyLimit,
    requestIdHeader: false,
    // Fastify's own request logs are two lines per request, each serialising the request or reply.
    logController: new OneLineRequestLog(),
    // What Fastify and Node refuse before the app answers in the {"detail": …} shape too.
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    genReqId: (request: IncomingMessage) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
  });
  const metrics = new AppMetrics();
  const root: DynamicModule = { module: HttpAppRootModule, imports: [MetricsModule.forRoot(metrics), module] };
  const app = await NestFactory.create<NestFastifyApplication>(root, adapter, {
    logger: new PinoNestLogger(options.logger),
    bufferLogs: false,
    // Our own JSON parser keeps the raw text for signatures (json-body.ts).
    bodyParser: false,
  });
  const fastify = app.getHttpAdapter().getInstance();
  quietPolledRoutes(fastify, options.polledRoutes);
  registerJsonBodyParser(fastify, bodyLimit);
  installCors(fastify);
  installHttpMetrics(fastify, metrics);
  if (options.index) installServiceIndex(fastify, options.index);
  fastify.addHook('onSend', (request, reply, payload, done) => {
    void reply.header('x-request-id', String(request.id));
    done(null, payload);
  });
  // Nest routes errors raised before a handler (body parsing, limits) through the same global filter.
  app.useGlobalFilters(new HttpErrorFilter());
  app.useGlobalPipes(createValidationPipe());
  if (options.openApi) {
    setupOpenApi(app, options.openApi);
  }
  return app;
}

/** Listens and returns the base URL a client on this machine can use. */
export async function listen(app: NestFastifyApplication, port: number, host: string): Promise<string> {
  await app.listen({ port, host });
  const address = app.getHttpServer().address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${shownHost}:${actualPort}`;
}
