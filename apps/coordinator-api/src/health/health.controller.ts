import { Public } from '@rcs/auth';
import { ApiErrors } from '@rcs/contracts';
import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiOkResponse, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ChainReadiness, chainReady, SUBTENSOR_PORT, SubtensorPort } from '@rcs/chain';
import { ReadinessBody, ReadinessCheck, readinessReply, StoresReadiness } from '@rcs/http';
import { COORDINATOR_CONFIG } from '../config/config.module';
import { CoordinatorConfig } from '../config/config';

export interface Readiness extends ReadinessBody<{ database: ReadinessCheck; redis: ReadinessCheck; chain: ChainReadiness }> {
  stake_check: 'on' | 'off';
}

/** `/readyz`: whether the database, Redis and the chain answer (`/healthz`, liveness, is the shared one). */
@ApiTags('health')
@Controller()
export class HealthController {
  constructor(
    private readonly stores: StoresReadiness,
    @Inject(SUBTENSOR_PORT) private readonly subtensor: SubtensorPort,
    @Inject(COORDINATOR_CONFIG) private readonly config: CoordinatorConfig,
  ) {}

  @Get('readyz')
  @Public()
  @ApiErrors()
  @ApiOkResponse({ description: 'Database, Redis and chain answer; says whether the miner stake check is on.' })
  @ApiServiceUnavailableResponse({ description: 'A dependency does not answer; the body says which.' })
  async readyz(@Res({ passthrough: true }) reply: FastifyReply): Promise<Readiness> {
    const [{ database, redis }, chain] = await Promise.all([this.stores.check(), chainReady(this.subtensor)]);
    return { ...readinessReply(reply, { database, redis, chain }), stake_check: this.config.stakeCheck ? 'on' : 'off' };
  }
}
