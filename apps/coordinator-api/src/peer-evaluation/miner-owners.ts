import { Inject, Injectable } from '@nestjs/common';
import { canonicalSs58 } from '@rcs/auth';
import { CachedOwnerReader, SUBTENSOR_PORT, SubtensorPort } from '@rcs/chain';
import { REDIS } from '@rcs/queue';
import type { Redis } from 'ioredis';
import { CoordinatorConfig } from '../config/config';
import { COORDINATOR_CONFIG } from '../config/config.module';

/**
 * The owner coldkey of a miner's hotkey, as the pool reads it for its Sybil grouping (DECISIONS.md §11), in
 * canonical SS58: an evaluation whose owner is unknown could let one owner count twice, so the chain unreachable
 * is a 503 (`@rcs/chain`'s cached reader).
 */
@Injectable()
export class MinerOwners extends CachedOwnerReader {
  constructor(@Inject(SUBTENSOR_PORT) subtensor: SubtensorPort, @Inject(REDIS) redis: Redis, @Inject(COORDINATOR_CONFIG) config: CoordinatorConfig) {
    super(subtensor, redis, { keyPrefix: `${config.redisKeyPrefix}:coordinator:owner:`, cacheSeconds: config.stakeCacheSeconds, canonical: canonicalSs58 });
  }
}
