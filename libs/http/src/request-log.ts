import { FastifyReply, FastifyRequest, LogController } from 'fastify';

/**
 * Fastify's request logging cut to one line per request: nothing when a request comes in, and when
 * its response has gone out one `info` line (`request`) with its id (the request logger's `reqId`
 * binding), method, URL, status and milliseconds — scalars only, so no request or reply object is
 * walked by a serializer on the hot path. A failed response still logs `request errored` with the error.
 * A SHA-256 in the path (a held-out shard's digest, DECISIONS §6) is logged as `[sha256]`.
 */
export class OneLineRequestLog extends LogController {
  override incomingRequest(): void {
    // Logged once, on completion.
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const line = { method: request.method, url: loggedUrl(request.url), statusCode: reply.statusCode, ms: Math.round(reply.elapsedTime * 10) / 10 };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else request.log.info(line, 'request');
  }
}

const PATH_DIGEST = /(?<=\/)[0-9a-fA-F]{64}(?=[/?#]|$)/g;

/** The URL as request logs carry it: every 64-hex path segment (a SHA-256) replaced by `[sha256]`. */
export function loggedUrl(url: string): string {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  return `${path.replace(PATH_DIGEST, '[sha256]')}${query === -1 ? '' : url.slice(query)}`;
}
