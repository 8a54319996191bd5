import type { FastifyInstance } from 'fastify';

/** What `/` of a service points at. */
export interface ServiceIndexOptions {
  service: string;
  /** Where people read the stack (`WEB_URL`); null when unset. */
  webUrl: string | null;
  /** Further routes worth a pointer, by name (e.g. `dashboard: '/api/v1/dashboard'`). */
  links?: Record<string, string>;
}

/** What every service serves: its API documents, its metrics and both probes (DECISIONS.md §13: liveness and readiness). */
const EVERY_SERVICE_ROUTES = { docs: '/docs', redoc: '/redoc', openapi: '/openapi.json', metrics: '/metrics', healthz: '/healthz', readyz: '/readyz' };

/** `GET /`: a small JSON index (the docs, the web UI) instead of a 404 for whoever opens the service's URL. */
export function installServiceIndex(fastify: FastifyInstance, options: ServiceIndexOptions): void {
  const body = JSON.stringify({ service: options.service, web_ui: options.webUrl, ...EVERY_SERVICE_ROUTES, ...options.links });
  fastify.get('/', { config: { authClass: 'public' } }, (_request, reply) => {
    void reply.type('application/json; charset=utf-8').send(body);
  });
}
