import { Controller, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '@rcs/auth';
import { EventStream, EventStreamRoute, serveEvents } from '@rcs/http';
import { POOL_EVENTS_DESCRIPTION } from './pool-events';

@ApiTags('events')
@Controller('api/v1/events')
export class EventsController {
  constructor(private readonly stream: EventStream) {}

  @EventStreamRoute(POOL_EVENTS_DESCRIPTION)
  @Public()
  async events(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await serveEvents(this.stream, request, reply);
  }
}
