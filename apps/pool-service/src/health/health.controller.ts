import { Public } from '@rcs/auth';
import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import { CLAIM_CONTRACT_PORT, ClaimContractPort } from '@rcs/chain';
import { ApiErrors, PoolHealthDto } from '@rcs/contracts';
import { databaseReady } from '@rcs/persistence';
import { REDIS, redisReady } from '@rcs/queue';
import type { Redis } from 'ioredis';
import { DataSource } from 'typeorm';
import { PoolClock } from '../common/pool-clock';
import { PoolServiceConfig } from '../config/config';
import { POOL_CONFIG } from '../config/config.module';

/** `/health` (DECISIONS.md §8 shape) and `/healthz` (liveness). */
@ApiTags('health')
@Controller()
export class HealthController {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(CLAIM_CONTRACT_PORT) private readonly contract: ClaimContractPort,
    @Inject(POOL_CONFIG) private readonly config: PoolServiceConfig,
    private readonly clock: PoolClock,
  ) {}

  @Get('healthz')
  @Public()
  @ApiErrors()
  @ApiOkResponse({ description: 'The process is up.', schema: { type: 'object', additionalProperties: { type: 'string' } } })
  healthz(): Record<string, string> {
    return { status: 'ok', service: 'pool-service', version: '0.1.0' };
  }

  @Get('health')
  @Public()
  @ApiErrors()
  @ApiOkResponse({ type: PoolHealthDto, description: 'Always 200; `status` is `degraded` when the database, Redis or chain fails.' })
  async health(): Promise<PoolHealthDto> {
    const enabled = this.config.chain.claimContractAddress !== null;
    const [database, redis, block, contract] = await Promise.all([
      databaseReady(this.dataSource),
      redisReady(this.redis),
      this.clock.currentBlock().catch(() => null),
      enabled ? this.contract.status() : Promise.resolve(null),
    ]);
    const healthy = database.ok && redis.ok && block !== null;
    return {
      status: healthy ? 'healthy' : 'degraded',
      window_number: block === null ? null : this.clock.windowOf(block),
      current_block: block,
      // Epoch publication comes with the payout issue; nothing is published yet.
      latest_epoch: null,
      window_blocks: this.config.windowBlocks,
      onchain_runtime: {
        enabled,
        contract_status: { active_veto_count: 0, is_veto_active: false, claim_ready: false, read_error: contract?.error ?? null },
        proof_api: { enabled: false },
        accounts: { publisher: null },
        processes: [{ name: 'publisher', running: false }],
      },
    };
  }
}
