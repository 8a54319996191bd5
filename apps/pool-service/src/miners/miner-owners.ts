import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { CachedOwnerReader, SUBTENSOR_PORT, SubtensorPort } from '@rcs/chain';
import { REDIS } from '@rcs/queue';
import type { Redis } from 'ioredis';
import { PoolServiceConfig } from '../config/config';
import { POOL_CONFIG } from '../config/config.module';

/**
 * The owner coldkey of a miner's hotkey for the pool's Sybil grouping (DECISIONS.md §11), through
 * `@rcs/chain`'s cached reader. With the stake gate off, owners are the only Sybil resistance left: said once at boot.
 */
@Injectable()
export class MinerOwners extends CachedOwnerReader implements OnApplicationBootstrap {
  private readonly logger = new Logger(MinerOwners.name);

  constructor(
    @Inject(SUBTENSOR_PORT) subtensor: SubtensorPort,
    @Inject(REDIS) redis: Redis,
    @Inject(POOL_CONFIG) private readonly config: PoolServiceConfig,
  ) {
    super(subtensor, redis, { keyPrefix: `${config.redisKeyPrefix}:owner:`, cacheSeconds: config.stake.cacheSeconds });
  }

  onApplicationBootstrap(): void {
    if (!this.config.stake.check) this.logger.warn('POOL_STAKE_CHECK=off: any key may mine without stake (local stacks and tests only; DECISIONS.md §11).');
  }
}
