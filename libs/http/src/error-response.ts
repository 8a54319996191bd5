import { HttpException } from '@nestjs/common';
import { ApiError, ApiValidationError, ErrorCode } from '@rcs/contracts';
import { dependencyUnavailable } from './dependency-errors';

export interface ErrorResponse {
  status: number;
  body: { detail: unknown };
  headers: Record<string, string>;
  /** True when the failure is ours, not the client's: log it with its stack. */
  internal: boolean;
}

/** 4xx raised by Nest or Fastify themselves (unknown route, body limit, content type), else null. */
function clientErrorStatus(exception: unknown): number | null {
  const status =
    exception instanceof HttpException ? exception.getStatus() : (exception as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' && status >= 400 && status < 500 ? status : null;
}

/** The code of each 4xx that Nest or Fastify raise themselves; any other status is an internal error. */
const CODE_FOR_STATUS: ReadonlyMap<number, ErrorCode> = new Map([
  [400, ErrorCode.MalformedBody],
  [401, ErrorCode.MissingSignature],
  [404, ErrorCode.NotFound],
  [405, ErrorCode.MethodNotAllowed],
  [413, ErrorCode.BodyTooLarge],
  [415, ErrorCode.UnsupportedMediaType],
  [429, ErrorCode.RateLimited],
]);

function detail(code: string, message: string, context: Record<string, unknown> = {}): { detail: unknown } {
  return { detail: { error: code, message, ...context } };
}

/** Maps anything thrown while serving a request to the shapes of DECISIONS.md §1. */
export function toErrorResponse(exception: unknown, requestId: string): ErrorResponse {
  if (exception instanceof ApiValidationError) {
    return { status: 422, body: { detail: exception.items }, headers: {}, internal: false };
  }
  if (exception instanceof ApiError) {
    return {
      status: exception.status,
      body: detail(exception.code, exception.message, exception.context),
      headers: exception.headers,
      internal: exception.status >= 500 && exception.code === ErrorCode.InternalError,
    };
  }
  const unavailable = dependencyUnavailable(exception);
  if (unavailable) return unavailable;
  const status = clientErrorStatus(exception);
  if (status !== null) {
    const raw = (exception as { message?: unknown }).message;
    const message =
      status === 415 ? 'This route takes a JSON body: send it with Content-Type: application/json.' : typeof raw === 'string' && raw ? raw : 'Bad request.';
    return { status, body: detail(CODE_FOR_STATUS.get(status) ?? ErrorCode.InternalError, message), headers: {}, internal: false };
  }
  return {
    status: 500,
    body: detail(ErrorCode.InternalError, 'The server failed to handle this request; quote the request id when reporting it.', {
      request_id: requestId,
    }),
    headers: {},
    internal: true,
  };
}
