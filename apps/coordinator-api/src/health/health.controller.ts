import { Public } from '@rcs/auth';
import { ApiErrors } from '@rcs/contracts';
import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiOkResponse, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { SUBTENSOR_PORT, SubtensorPort } from '@rcs/chain';
import { StoresReadiness } from '@rcs/http';
import { COORDINATOR_CONFIG } from '../config/config.module';
import { CoordinatorConfig } from '../config/config';

interface Check {
  ok: boolean;
  error?: string;
  latest_block?: number;
}

export interface Readiness {
  status: 'ready' | 'not_ready';
  checks: { database: Check; redis: Check; chain: Check };
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
    const [{ database, redis }, chain] = await Promise.all([this.stores.check(), this.chainReady()]);
    const ready = database.ok && redis.ok && chain.ok;
    void reply.status(ready ? 200 : 503);
    return {
      status: ready ? 'ready' : 'not_ready',
      checks: { database, redis, chain },
      stake_check: this.config.stakeCheck ? 'on' : 'off',
    };
  }

  private async chainReady(): Promise<Check> {
    try {
      return { ok: true, latest_block: await this.subtensor.latestBlock() };
    } catch (err) {
      return { ok: false, error: err instanceof Error ? err.message : String(err) };
    }
  }
}
