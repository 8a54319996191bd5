import type { BtAuthSigner } from '@rcs/auth';
import { InvalidResponseError, ServiceAnswerError, ServiceUnreachableError } from './errors';

export interface HttpClientOptions {
  /** e.g. `http://127.0.0.1:8000`; a trailing slash is ignored. */
  baseUrl: string;
  /** Per request. */
  timeoutMs: number;
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
}

export interface HttpAnswer {
  status: number;
  text: string;
  headers: Headers;
}

/** The transport every typed client of `@rcs/client` shares: base URL, timeout, signing, error mapping. */
export class HttpClient {
  readonly baseUrl: string;

  constructor(private readonly options: HttpClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  /** Sends the request; network failures and timeouts are `ServiceUnreachableError`, any status is answered. */
  async send(request: HttpRequest): Promise<HttpAnswer> {
    const headers: Record<string, string> = {};
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
      return { status: response.status, text: await response.text(), headers: response.headers };
    } catch (error) {
      throw new ServiceUnreachableError(describeFetchError(error), request.path);
    }
  }

  /** Sends the request and parses a 2xx JSON answer; any other status is a `ServiceAnswerError`. */
  async json(request: HttpRequest): Promise<unknown> {
    const answer = await this.send(request);
    if (answer.status < 200 || answer.status > 299) throw answerError(answer, request.path);
    try {
      return JSON.parse(answer.text) as unknown;
    } catch {
      throw new InvalidResponseError(request.path, ['the body is not JSON']);
    }
  }
}

/** The `detail.error` code and message of a DECISIONS §1 error body, when there is one. */
export function answerError(answer: HttpAnswer, path: string): ServiceAnswerError {
  try {
    const detail = (JSON.parse(answer.text) as { detail?: unknown }).detail;
    if (typeof detail === 'object' && detail !== null && !Array.isArray(detail)) {
      const { error, message } = detail as { error?: unknown; message?: unknown };
      return new ServiceAnswerError(answer.status, typeof error === 'string' ? error : null, typeof message === 'string' ? message : answer.text.slice(0, 500), path);
    }
  } catch {
    // Not JSON: the text says what happened.
  }
  return new ServiceAnswerError(answer.status, null, answer.text.slice(0, 500), path);
}

function describeFetchError(error: unknown): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return 'timed out';
  const cause = error instanceof Error ? (error.cause as NodeJS.ErrnoException | undefined) : undefined;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}
