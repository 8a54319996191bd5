import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '@rcs/auth';
import { ApiErrors, QueueName } from '@rcs/contracts';
import { ReadinessBody, ReadinessCheck, readinessReply } from '@rcs/http';
import { JobQueue } from '@rcs/queue';
import { CoordinatorClient } from '../coordinator/coordinator.client';

export type RunnerReadiness = ReadinessBody<{ redis: ReadinessCheck; coordinator: ReadinessCheck }>;

/** `/readyz`: whether the runner's Redis (its replay queue's connection) and the coordinator answer; `/healthz`, liveness, is the shared one. */
@ApiTags('health')
@Controller()
export class HealthController {
  constructor(
    private readonly queue: JobQueue,
    private readonly coordinator: CoordinatorClient,
  ) {}

  @Get('readyz')
  @Public()
  @ApiErrors()
  @ApiOkResponse({ description: 'Redis and the coordinator answer.' })
  @ApiServiceUnavailableResponse({ description: 'A dependency does not answer; the body says which.' })
  async readyz(@Res({ passthrough: true }) reply: FastifyReply): Promise<RunnerReadiness> {
    const [redis, coordinator] = await Promise.all([this.queue.ready(QueueName.Replay), this.coordinator.ready()]);
    return readinessReply(reply, { redis, coordinator });
  }
}
