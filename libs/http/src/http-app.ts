import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { DynamicModule, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import { HttpErrorFilter } from './error.filter';
import { registerJsonBodyParser } from './json-body';
import { answerClientError, answerFrameworkError } from './low-level-errors';
import { PinoNestLogger } from './logger';
import { OpenApiOptions, setupOpenApi } from './openapi';
import { createValidationPipe } from './validation';

export const DEFAULT_BODY_LIMIT = 2 * 1024 * 1024;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export interface HttpAppOptions {
  logger: Logger;
  openApi?: OpenApiOptions;
  bodyLimit?: number;
}

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
    // What Fastify and Node refuse before the app answers in the {"detail": …} shape too.
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    genReqId: (request: IncomingMessage) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
  });
  const app = await NestFactory.create<NestFastifyApplication>(module, adapter, {
    logger: new PinoNestLogger(options.logger),
    bufferLogs: false,
    // Our own JSON parser keeps the raw text for signatures (json-body.ts).
    bodyParser: false,
  });
  const fastify = app.getHttpAdapter().getInstance();
  registerJsonBodyParser(fastify, bodyLimit);
  fastify.addHook('onSend', async (request, reply) => {
    void reply.header('x-request-id', String(request.id));
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
