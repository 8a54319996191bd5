import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { AuthClass } from '@rcs/auth';

/** Paths BitSota's clients call with a trailing slash (FastAPI style); Nest strips it from route paths. */
export const TRAILING_SLASH_PATHS = ['/api/v1/results/'];

const HOP_BY_HOP = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive']);

/**
 * Serves each path of TRAILING_SLASH_PATHS as its slash-less route, in-process: pool signatures cover
 * `auth:{ts}` only, so the answer is exactly what the route gives.
 */
@Injectable()
export class TrailingSlashAliases implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    for (const path of TRAILING_SLASH_PATHS) {
      // Signed like the route it serves, so it gets no CORS header either.
      fastify.get(path, { config: { authClass: AuthClass.PoolSigned } }, async (request, reply) => {
        const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
        const answer = await fastify.inject({ method: 'GET', url: `${path.slice(0, -1)}${query}`, headers: request.headers });
        const headers = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !HOP_BY_HOP.has(name.toLowerCase())));
        return reply.code(answer.statusCode).headers(headers).send(answer.rawPayload);
      });
    }
  }
}
