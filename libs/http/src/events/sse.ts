import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiValidationError } from '@rcs/contracts';
import { clientAddress } from '../net/client-address';
import { validationItem } from '../request-validation/validation-item';
import { EventStream, EventSubscriber, STREAM_ID, StreamEndReason, StreamEvent } from './event-stream';
import { StreamSlot } from './stream-admission';

/** A client that stops reading is dropped past this much unsent output; it resumes with Last-Event-ID. */
const MAX_BUFFERED_BYTES = 1024 * 1024;

/** The `Last-Event-ID` header, null when absent; 422 when it is not a stream id. */
export function lastEventId(request: FastifyRequest): string | null {
  const header = request.headers['last-event-id'];
  if (header === undefined || header === '') return null;
  const value = Array.isArray(header) ? header[0] : header;
  if (!STREAM_ID.test(value)) {
    throw new ApiValidationError([
      validationItem('value_error', ['header', 'last-event-id'], 'Last-Event-ID must be an event id this stream sent, like 1764000000000-0', value),
    ]);
  }
  return value;
}

/**
 * One open `text/event-stream` response. Ends itself when its client stops reading: output has waited
 * for the client `maxIdleMs` with none of it taken (each write's callback, which Node calls once the
 * kernel took the bytes, is progress), or more than `MAX_BUFFERED_BYTES` wait. Those two end the
 * connection at once (an orderly end would queue behind output that never leaves).
 */
class SseConnection implements EventSubscriber {
  private ended = false;
  /** Writes the kernel has not taken yet. */
  private unsent = 0;
  /** When the client last took output, or when output began to wait on it. */
  private lastProgress = 0;
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly res: ServerResponse,
    private readonly maxIdleMs: number,
    private readonly onEnd: (reason: StreamEndReason) => void,
  ) {
    res.on('close', () => this.end('client'));
    // A client that left while the stream was admitted: its 'close' has been and gone.
    if (res.destroyed || !res.socket || res.socket.destroyed) this.end('client');
  }

  deliver(event: StreamEvent): void {
    this.write(`id: ${event.id}\nevent: ${event.type}\ndata: ${event.data}\n\n`);
  }

  heartbeat(): void {
    this.write(': heartbeat\n\n');
  }

  /** The service is shutting down. */
  close(): void {
    this.end('shutdown');
  }

  waiting(): boolean {
    return this.unsent > 0;
  }

  get closed(): boolean {
    return this.ended;
  }

  write(text: string): void {
    if (this.ended) return;
    if (this.unsent === 0) this.lastProgress = Date.now();
    this.unsent += 1;
    this.res.write(text, () => this.progress());
    if (this.res.writableLength > MAX_BUFFERED_BYTES) this.end('overflow');
    else if (this.unsent > 0 && this.idleTimer === null) this.armIdle(this.maxIdleMs);
  }

  end(reason: StreamEndReason): void {
    if (this.ended) return;
    this.ended = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    if (reason === 'idle' || reason === 'overflow') this.res.destroy();
    else this.res.end();
    this.onEnd(reason);
  }

  private progress(): void {
    this.unsent -= 1;
    this.lastProgress = Date.now();
  }

  private armIdle(ms: number): void {
    this.idleTimer = setTimeout(() => {
      this.idleTimer = null;
      if (this.ended || this.unsent === 0) return;
      const waited = Date.now() - this.lastProgress;
      if (waited >= this.maxIdleMs) this.end('idle');
      else this.armIdle(this.maxIdleMs - waited);
    }, ms);
    this.idleTimer.unref();
  }
}

/**
 * Answers `GET /api/v1/events` as Server-Sent Events: `id:` is the stream id, `event:` the name,
 * `data:` the JSON payload; a comment every heartbeat. The stream takes a slot of the process's
 * limits first (429 `too_many_streams` past them), and gives it back when it ends. The reply is taken
 * over from Fastify.
 */
export async function serveEvents(stream: EventStream, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const after = lastEventId(request);
  const slot: StreamSlot = stream.admit(clientAddress(request.socket.remoteAddress, request.headers['x-forwarded-for'], stream.options.trustedProxies));
  try {
    // Before the reply is taken over, so a Redis outage is still an ordinary 503.
    await stream.ready();
  } catch (error) {
    slot.release();
    throw error;
  }
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    // Nginx-style proxies would otherwise hold events back in their buffer.
    'x-accel-buffering': 'no',
  });
  let unsubscribe: (() => void) | null = null;
  const connection = new SseConnection(res, stream.options.maxIdleMs, (reason) => {
    slot.release();
    unsubscribe?.();
    stream.ended(reason);
  });
  // Tells EventSource how long to wait before it reconnects, and flushes the headers.
  connection.write('retry: 3000\n\n');
  try {
    unsubscribe = await stream.subscribe(connection, after);
    if (connection.closed) unsubscribe();
  } catch (error) {
    request.log.warn({ err: error }, 'event stream unavailable');
    connection.end('unavailable');
  }
}
