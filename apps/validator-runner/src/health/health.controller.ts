import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiOkResponse, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '@rcs/auth';
import { ApiErrors, QueueName } from '@rcs/contracts';
import { ReadinessBody, ReadinessCheck, readinessReply } from '@rcs/http';
import { JobQueue } from '@rcs/queue';
import { CoordinatorClient } from '../coordinator/coordinator.client';
import { AcceleratorReport, acceleratorReport, Accelerators } from '../sandbox/accelerators';
import { RUNNER_ACCELERATORS } from '../runner/tokens';

export type RunnerReadiness = ReadinessBody<{ redis: ReadinessCheck; coordinator: ReadinessCheck }> & { accelerators: AcceleratorReport };

/**
 * `/readyz`: whether the runner's Redis (its replay queue's connection) and the coordinator answer, and the
 * accelerators found at start-up (what the scans declare); `/healthz`, liveness, is the shared one.
 */
@ApiTags('health')
@Controller()
export class HealthController {
  constructor(
    private readonly queue: JobQueue,
    private readonly coordinator: CoordinatorClient,
    @Inject(RUNNER_ACCELERATORS) private readonly accelerators: Accelerators,
  ) {}

  @Get('readyz')
  @Public()
  @ApiErrors()
  @ApiOkResponse({ description: 'Redis and the coordinator answer. `accelerators`: the host GPUs, those SANDBOX_GPUS exposes, and the capabilities scans declare.' })
  @ApiServiceUnavailableResponse({ description: 'A dependency does not answer; the body says which.' })
  async readyz(@Res({ passthrough: true }) reply: FastifyReply): Promise<RunnerReadiness> {
    const [redis, coordinator] = await Promise.all([this.queue.ready(QueueName.Replay), this.coordinator.ready()]);
    return { ...readinessReply(reply, { redis, coordinator }), accelerators: acceleratorReport(this.accelerators) };
  }
}
