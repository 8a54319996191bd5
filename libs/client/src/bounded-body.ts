import { ServiceUnreachableError } from './errors';

/**
 * Bounds on what a client reads of an answer, by the kind of answer it expects (a hostile or broken service
 * must not make a client read without end): the largest body of each kind and the longest silence while it
 * comes. The request's total timeout (`HttpClientOptions.timeoutMs`) covers headers and body together.
 */
export interface HttpBodyLimits {
  /** A JSON document (lists, records). */
  documentBytes: number;
  /** A text answer (Markdown). */
  textBytes: number;
  /** Exact bytes (artifacts, packages). */
  bytesBytes: number;
  /** Any non-2xx answer (a DECISIONS §1 error body is small). */
  errorBytes: number;
  /** No body byte for this long ends the read; 0: no idle bound. */
  idleTimeoutMs: number;
}

export type AnswerKind = 'document' | 'text' | 'bytes';

/** No bound at all: what a client without limits reads (the services' own calls to each other). */
export const UNBOUNDED_BODY: HttpBodyLimits = { documentBytes: Infinity, textBytes: Infinity, bytesBytes: Infinity, errorBytes: Infinity, idleTimeoutMs: 0 };

/** The answer broke a bound: larger than its kind allows, or silent too long while its body came. */
export class AnswerBoundError extends ServiceUnreachableError {
  constructor(reason: string, path: string) {
    super(reason, path);
    this.name = 'AnswerBoundError';
  }
}

/** `bytes` as people read it: `8 MiB`, `64 KiB`, `100 bytes`. */
export function sizeText(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/**
 * The body of `response`, read chunk by chunk: refused as soon as it passes `maxBytes` (a `Content-Length` above it
 * before reading anything), and when no chunk comes for `idleTimeoutMs`. The connection is cancelled either way.
 */
export async function readBoundedBody(response: Response, maxBytes: number, idleTimeoutMs: number, path: string): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw new AnswerBoundError(`the answer is larger than ${sizeText(maxBytes)}, the most read for it`, path);
  }
  if (response.body === null) return new Uint8Array(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await nextChunk(reader, idleTimeoutMs, path);
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) throw new AnswerBoundError(`the answer is larger than ${sizeText(maxBytes)}, the most read for it`, path);
      chunks.push(value);
    }
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    throw error;
  }
  const body = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    body.set(chunk, at);
    at += chunk.byteLength;
  }
  return body;
}

type Chunk = Awaited<ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']>>;

async function nextChunk(reader: ReadableStreamDefaultReader<Uint8Array>, idleTimeoutMs: number, path: string): Promise<Chunk> {
  if (idleTimeoutMs <= 0) return reader.read();
  let timer: NodeJS.Timeout | undefined;
  const idle = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new AnswerBoundError(`the answer stalled: no data for ${idleTimeoutMs / 1000} s`, path)), idleTimeoutMs);
  });
  try {
    return await Promise.race([reader.read(), idle]);
  } finally {
    clearTimeout(timer);
  }
}
