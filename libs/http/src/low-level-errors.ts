import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { ErrorCode } from '@rcs/contracts';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Answers for what Fastify and Node refuse before a request reaches the app (no route, no Nest filter),
 * in the `{"detail": …}` shape of DECISIONS.md §1 like every other answer.
 */

function detailBody(code: ErrorCode, message: string): string {
  return JSON.stringify({ detail: { error: code, message } });
}

/**
 * Fastify's `frameworkErrors`: the router could not read the path. A path parameter longer than the
 * router's limit (`FST_ERR_MAX_PARAM_LENGTH`, else 414) or a malformed percent-encoding
 * (`FST_ERR_BAD_URL`, else 400) names nothing the service holds: 404 `not_found`.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const notFound = error.code === 'FST_ERR_BAD_URL' || error.code === 'FST_ERR_MAX_PARAM_LENGTH';
  const [status, code, message] = notFound
    ? [404, ErrorCode.NotFound, error.code === 'FST_ERR_BAD_URL' ? 'The URL path is not valid percent-encoding.' : 'No resource has an id that long.']
    : [500, ErrorCode.InternalError, 'The server failed to route this request; quote the request id when reporting it.'];
  if (!notFound) request.log.error({ err: error }, 'request failed below the app');
  void reply
    .status(status)
    .header('x-request-id', String(request.id))
    .type('application/json; charset=utf-8')
    .send(detailBody(code, message));
}

/** Node's `clientError`: headers too large (431), a request too slow (408), or not HTTP at all (400). */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, ErrorCode.RequestHeadersTooLarge, 'The request headers are larger than this server accepts.']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, ErrorCode.RequestTimeout, 'The request was not received in time.']
        : [400, ErrorCode.MalformedRequest, 'The request is not valid HTTP.'];
  if (socket.writable) {
    const body = detailBody(code, message);
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
