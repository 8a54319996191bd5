import { ErrorCode } from './error-code';
import { type CodeWithStatus, type ErrorStatus, errorStatus } from './error-status';

/** Extra fields that travel next to `error` and `message` inside `detail`. */
/** A JSON value in an error's context (e.g. the payments a `nothing_to_claim` names). */
export type ErrorContextValue = string | number | boolean | null | ErrorContextValue[] | { [key: string]: ErrorContextValue };
export type ErrorContext = Record<string, ErrorContextValue>;

/**
 * A failure meant for the client, raised by code: `new ApiError(code, message, context)`. Its status is
 * the code's one status in `ERROR_STATUS`. The global error filter turns it into
 * `{"detail": {"error": code, "message": message, ...context}}` with that status.
 */
export class ApiError extends Error {
  readonly status: ErrorStatus;
  readonly code: ErrorCode;
  readonly context: ErrorContext;
  /** Extra response headers, e.g. `Retry-After` on 429. */
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, context?: ErrorContext, headers?: Record<string, string>) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.status = errorStatus(code);
    this.context = context ?? {};
    this.headers = headers ?? {};
  }

  // Factories named by status class: a code of another status does not compile.
  static notFound(code: CodeWithStatus<404>, message: string, context?: ErrorContext): ApiError {
    return new ApiError(code, message, context);
  }

  static conflict(code: CodeWithStatus<409>, message: string, context?: ErrorContext): ApiError {
    return new ApiError(code, message, context);
  }

  static forbidden(code: CodeWithStatus<403>, message: string, context?: ErrorContext): ApiError {
    return new ApiError(code, message, context);
  }

  static unauthorized(code: CodeWithStatus<401>, message: string, context?: ErrorContext): ApiError {
    return new ApiError(code, message, context);
  }

  static unavailable(code: CodeWithStatus<503>, message: string, context?: ErrorContext): ApiError {
    return new ApiError(code, message, context);
  }
}

/** One item of a 422 body, FastAPI/pydantic-shaped. */
export interface ValidationErrorItem {
  type: string;
  loc: (string | number)[];
  msg: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

/** A 422 raised by code (not by the validation pipe), e.g. patch-surface violations. */
export class ApiValidationError extends Error {
  constructor(readonly items: ValidationErrorItem[]) {
    super(items.map((i) => i.msg).join('; '));
    this.name = 'ApiValidationError';
  }
}

export interface ErrorDetailBody {
  detail: { error: string; message: string; [key: string]: unknown };
}

export interface ValidationErrorBody {
  detail: ValidationErrorItem[];
}
