import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiValidationError } from '@rcs/contracts';
import { validationItem } from '../request-validation/validation-item';
import { EventStream, STREAM_ID, StreamEvent } from './event-stream';

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
 * Answers `GET /api/v1/events` as Server-Sent Events: `id:` is the stream id, `event:` the name,
 * `data:` the JSON payload; a comment every heartbeat. The reply is taken over from Fastify.
 */
export async function serveEvents(stream: EventStream, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const after = lastEventId(request);
  const res = reply.raw;
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    res.end();
  };
  const write = (text: string) => {
    if (closed) return;
    res.write(text);
    if (res.writableLength > MAX_BUFFERED_BYTES) close();
  };
  // Before the reply is taken over, so a Redis outage is still an ordinary 503.
  await stream.ready();
  reply.hijack();
  res.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    // Nginx-style proxies would otherwise hold events back in their buffer.
    'x-accel-buffering': 'no',
  });
  // Tells EventSource how long to wait before it reconnects, and flushes the headers.
  res.write('retry: 3000\n\n');
  let unsubscribe: (() => void) | null = null;
  res.on('close', () => {
    closed = true;
    unsubscribe?.();
  });
  try {
    unsubscribe = await stream.subscribe(
      {
        deliver: (event: StreamEvent) => write(`id: ${event.id}\nevent: ${event.type}\ndata: ${event.data}\n\n`),
        heartbeat: () => write(': heartbeat\n\n'),
        close,
      },
      after,
    );
    if (closed) unsubscribe();
  } catch (error) {
    request.log.warn({ err: error }, 'event stream unavailable');
    close();
  }
}
