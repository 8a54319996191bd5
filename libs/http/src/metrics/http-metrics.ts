import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { AppMetrics } from './app-metrics';

/** Route config of `/metrics`: not a public route (no CORS), and served outside the gateway's public hosts. */
const METRICS_ROUTE_CONFIG = { authClass: 'internal' };

/** Times every answered request by route template and status, and serves `GET /metrics` (Prometheus text). */
export function installHttpMetrics(fastify: FastifyInstance, metrics: AppMetrics): void {
  fastify.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    metrics.observeRequest(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  fastify.get('/metrics', { config: METRICS_ROUTE_CONFIG }, async (_request, reply) => {
    const { contentType, body } = await metrics.scrape();
    return reply.type(contentType).send(body);
  });
}
