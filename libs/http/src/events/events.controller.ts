import { applyDecorators, Controller, Inject, Req, Res, Type } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { EventStream } from './event-stream';
import { EventStreamRoute } from './event-stream-route';
import { serveEvents } from './sse';

/**
 * A service's `GET /api/v1/events` (DECISIONS §14); `description` lists its events, `routeDecorators`
 * are what the app's guards ask every route to declare (its auth class).
 */
export function createEventsController(description: string, ...routeDecorators: MethodDecorator[]): Type<unknown> {
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
