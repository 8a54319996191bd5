import { applyDecorators, Controller, Inject, Req, Res, Type } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { EventStream } from './event-stream';
import { EventStreamRoute } from './event-stream-route';
import { serveEvents } from './sse';

/** What every service's event stream says of itself (DECISIONS §14), before the list of its events. */
const EVENT_STREAM_HEADER = [
  'Server-Sent Events, public. Each event has `id:` (its Redis stream id), `event:` (its name) and `data:` (one JSON object).',
  'Reconnect with the `Last-Event-ID` header (EventSource does it by itself) to get exactly the events after that id, in order,',
  'as long as they are still within the stream bound (`EVENTS_MAX_LENGTH`); without it, events from now on. A `: heartbeat` comment keeps idle connections open.',
];

/** The route's description: the shared header, then one line per event (`- \`name\`: \`{fields}\` — when`). */
export function eventStreamDescription(events: readonly string[]): string {
  return [...EVENT_STREAM_HEADER, '', ...events].join('\n');
}

/**
 * A service's `GET /api/v1/events` (DECISIONS §14); `events` lists its events (one line each, see
 * `eventStreamDescription`), `routeDecorators` are what the app's guards ask every route to declare
 * (its auth class).
 */
export function createEventsController(events: readonly string[], ...routeDecorators: MethodDecorator[]): Type<unknown> {
  const description = eventStreamDescription(events);
  @ApiTags('events')
  @Controller('api/v1/events')
  class EventsController {
    constructor(@Inject(EventStream) private readonly stream: EventStream) {}

    @EventStreamRoute(description)
    @applyDecorators(...routeDecorators)
    async events(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
      await serveEvents(this.stream, request, reply);
    }
  }
  return EventsController;
}
