import { Module, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { ApiError, ErrorCode } from '@rcs/contracts';
import { TasksModule } from '../tasks/tasks.module';
import { HeldoutController } from './heldout.controller';
import { HeldoutRepository } from './heldout.repository';
import { HeldoutService } from './heldout.service';

/** The one route that takes a body other than JSON. */
const UPLOAD_ROUTE = '/api/v1/tasks/:task_id/heldout';

/** Private held-out delivery (DECISIONS.md §6). Validator jobs import it to pick and announce each lease's shard. */
@Module({
  imports: [TasksModule],
  controllers: [HeldoutController],
  providers: [HeldoutRepository, HeldoutService],
  exports: [HeldoutService],
})
export class HeldoutModule implements OnModuleInit {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  /**
   * Lets `application/octet-stream` through to the upload route as the raw request stream (the service
   * hashes it into the store as it arrives, never holding a shard in memory); every other route still answers 415.
   */
  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    if (fastify.hasContentTypeParser('application/octet-stream')) return;
    fastify.addContentTypeParser('application/octet-stream', (request, payload, done) => {
      if (request.method === 'POST' && request.routeOptions.url === UPLOAD_ROUTE) {
        done(null, payload);
        return;
      }
      done(new ApiError(ErrorCode.UnsupportedMediaType, 'This route takes application/json.'), undefined);
    });
  }
}

export { HeldoutService } from './heldout.service';
