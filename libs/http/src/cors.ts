import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';

const PREFLIGHT_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, HEAD',
  // EventSource sends it when it resumes; no credential header is ever allowed cross-origin.
  'access-control-allow-headers': 'Last-Event-ID',
  'access-control-max-age': '600',
};

/** The auth class a route declared (`authClassMetadata` puts it in the Fastify route config); undefined for framework routes. */
function declaredAuthClass(request: FastifyRequest): unknown {
  return (request.routeOptions.config as { authClass?: unknown } | undefined)?.authClass;
}

/**
 * Cross-origin reads for browsers (the web UI): GET/HEAD answers of public routes carry
 * `Access-Control-Allow-Origin: *`, and a preflight for GET/HEAD is answered; no credentials.
 * Signed and admin routes get no CORS header, and the preflight never allows their headers.
 */
export function installCors(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const method = request.method;
    if (method === 'GET' || method === 'HEAD') {
      const authClass = declaredAuthClass(request);
      if (authClass === undefined || authClass === 'public') void reply.header('access-control-allow-origin', '*');
    } else if (method === 'OPTIONS') {
      const requested = request.headers['access-control-request-method'];
      if (requested === 'GET' || requested === 'HEAD') {
        void reply.code(204).headers(PREFLIGHT_HEADERS).send();
        return;
      }
    }
    done();
  });
}
