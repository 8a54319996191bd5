import { ErrorCode } from './error-code';

/** Extra fields that travel next to `error` and `message` inside `detail`. */
export type ErrorContext = Record<string, string | number | boolean | null>;

/**
 * A failure meant for the client. The global error filter turns it into
 * `{"detail": {"error": code, "message": message, ...context}}` with `status`.
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly context: ErrorContext = {},
    /** Extra response headers, e.g. `Retry-After` on 429. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  static notFound(code: ErrorCode, message: string, context?: ErrorContext): ApiError {
    return new ApiError(404, code, message, context);
  }

  static conflict(code: ErrorCode, message: string, context?: ErrorContext): ApiError {
    return new ApiError(409, code, message, context);
  }

  static forbidden(code: ErrorCode, message: string, context?: ErrorContext): ApiError {
    return new ApiError(403, code, message, context);
  }

  static unauthorized(code: ErrorCode, message: string, context?: ErrorContext): ApiError {
    return new ApiError(401, code, message, context);
  }

  static unavailable(code: ErrorCode, message: string, context?: ErrorContext): ApiError {
    return new ApiError(503, code, message, context);
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
