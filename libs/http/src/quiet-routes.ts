import type { FastifyInstance } from 'fastify';

/** Routes polled all the time (probes, scrapes): what a person watching the log does not need to see. */
export const POLLED_ROUTES = ['/healthz', '/readyz', '/health', '/metrics', '/'];

/**
 * Request logs of polled routes (`POLLED_ROUTES` and the app's own, e.g. the validators' scan) count
 * as debug: at `LOG_LEVEL=info` they are left out, at `debug` and `trace` they are logged as before.
 */
export function quietPolledRoutes(fastify: FastifyInstance, extra: readonly string[] = []): void {
  const polled = new Set([...POLLED_ROUTES, ...extra]);
  fastify.addHook('onRoute', (route) => {
    if (polled.has(route.url) && fastify.log.level === 'info' && !route.logLevel) route.logLevel = 'warn';
  });
}
