import type { BtAuthSigner } from '@rcs/auth';
import { AnswerBoundError, AnswerKind, HttpBodyLimits, readBoundedBody, UNBOUNDED_BODY } from './bounded-body';
import { InvalidResponseError, ServiceAnswerError, ServiceUnreachableError } from './errors';

export interface HttpClientOptions {
  /** e.g. `http://127.0.0.1:8000`; a trailing slash is ignored. */
  baseUrl: string;
  /** Per request, headers and body together. */
  timeoutMs: number;
  /** The most read of each kind of answer and the longest silence while a body comes; unset: unbounded. */
  limits?: HttpBodyLimits;
  /** Signs requests marked `signed` (BT-AUTH-V1: the exact text sent is signed). */
  signer?: BtAuthSigner;
}

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path and raw query, e.g. `/api/v1/verifications?submission_id=…`. */
  path: string;
  /** JSON text sent as the body. */
  body?: string;
  signed?: boolean;
  /** Extra headers (`X-Admin-Token`, the pool's signed headers). */
  headers?: Record<string, string>;
}

/** A JSON answer and the exact text it was parsed from. */
export interface JsonDocument<T> {
  value: T;
  text: string;
}

export interface HttpAnswer {
  status: number;
  text: string;
  headers: Headers;
}

/** An answer whose body is the bytes as sent. */
export interface HttpBytesAnswer {
  status: number;
  body: Uint8Array;
  headers: Headers;
}

/** The body as text, decoded as `Response.text()` decodes it (UTF-8, a leading BOM dropped). */
function decoded(answer: HttpBytesAnswer): HttpAnswer {
  return { status: answer.status, text: new TextDecoder().decode(answer.body), headers: answer.headers };
}

/** The transport every typed client of `@rcs/client` shares: base URL, timeout, signing, error mapping. */
export class HttpClient {
  readonly baseUrl: string;

  constructor(private readonly options: HttpClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  /**
   * Sends the request; network failures, timeouts and answers past the client's limits are `ServiceUnreachableError`
   * (`AnswerBoundError` for the limits), any status is answered.
   */
  async send(request: HttpRequest, kind: AnswerKind = 'document'): Promise<HttpAnswer> {
    return decoded(await this.receive(request, kind));
  }

  /** Like `send`, the body kept as the exact bytes sent (a digest must hash what the service sent, not a decoding of it). */
  async receive(request: HttpRequest, kind: AnswerKind = 'bytes'): Promise<HttpBytesAnswer> {
    const headers: Record<string, string> = { ...request.headers };
    if (request.signed) {
      if (!this.options.signer) throw new TypeError(`${request.method} ${request.path} must be signed but the client has no signer`);
      Object.assign(headers, this.options.signer.signRequest({ method: request.method, url: request.path, body: request.body }));
    }
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    try {
      const response = await fetch(`${this.baseUrl}${request.path}`, {
        method: request.method,
        headers,
        body: request.body,
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      const limits = this.options.limits ?? UNBOUNDED_BODY;
      const ok = response.status >= 200 && response.status <= 299;
      const maxBytes = ok ? limits[`${kind}Bytes`] : limits.errorBytes;
      return { status: response.status, body: await readBoundedBody(response, maxBytes, limits.idleTimeoutMs, request.path), headers: response.headers };
    } catch (error) {
      if (error instanceof AnswerBoundError) throw error;
      throw new ServiceUnreachableError(describeFetchError(error), request.path);
    }
  }

  /** Sends the request and parses a 2xx JSON answer; any other status is a `ServiceAnswerError`. */
  async json(request: HttpRequest): Promise<unknown> {
    return (await this.document(request)).value;
  }

  /** Like `json`, keeping the answer's text too (a client that must print exactly what the service sent). */
  async document(request: HttpRequest): Promise<JsonDocument<unknown>> {
    const text = await this.answerText(request, 'document');
    try {
      return { value: JSON.parse(text) as unknown, text };
    } catch {
      throw new InvalidResponseError(request.path, ['the body is not JSON']);
    }
  }

  /** The exact bytes of a 2xx answer; any other status is a `ServiceAnswerError`. */
  async bytes(request: HttpRequest): Promise<Uint8Array> {
    const answer = await this.receive(request, 'bytes');
    if (answer.status < 200 || answer.status > 299) throw answerError(decoded(answer), request.path);
    return answer.body;
  }

  /** The text of a 2xx answer (Markdown routes); any other status is a `ServiceAnswerError`. */
  async text(request: HttpRequest): Promise<string> {
    return this.answerText(request, 'text');
  }

  private async answerText(request: HttpRequest, kind: AnswerKind): Promise<string> {
    const answer = await this.send(request, kind);
    if (answer.status < 200 || answer.status > 299) throw answerError(answer, request.path);
    return answer.text;
  }
}

/** The `detail.error` code and message of a DECISIONS §1 error body, when there is one. */
export function answerError(answer: HttpAnswer, path: string): ServiceAnswerError {
  try {
    const detail = (JSON.parse(answer.text) as { detail?: unknown }).detail;
    if (typeof detail === 'object' && detail !== null && !Array.isArray(detail)) {
      const { error, message } = detail as { error?: unknown; message?: unknown };
      return new ServiceAnswerError(answer.status, typeof error === 'string' ? error : null, typeof message === 'string' ? message : answer.text.slice(0, 500), path, answer.text);
    }
    if (Array.isArray(detail)) return new ServiceAnswerError(answer.status, 'validation_error', validationText(detail), path, answer.text);
  } catch {
    // Not JSON: the text says what happened.
  }
  return new ServiceAnswerError(answer.status, null, answer.text.slice(0, 500), path, answer.text);
}

/** The 422 items of a DECISIONS §1 validation body as one line: `body.patch: message; …`. */
function validationText(items: unknown[]): string {
  return items
    .map((item) => {
      const { loc, msg } = (typeof item === 'object' && item !== null ? item : {}) as { loc?: unknown; msg?: unknown };
      const where = Array.isArray(loc) ? loc.join('.') : '';
      return `${where}${where ? ': ' : ''}${typeof msg === 'string' ? msg : JSON.stringify(item)}`;
    })
    .join('; ');
}

function describeFetchError(error: unknown): string {
  // A timeout while the body comes is a DOMException, which is no `Error` of this realm under every runner.
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'TimeoutError' || name === 'AbortError') return 'timed out';
  const cause = error instanceof Error ? (error.cause as NodeJS.ErrnoException | undefined) : undefined;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}
