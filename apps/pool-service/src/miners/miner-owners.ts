import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { ChainUnavailableError, SUBTENSOR_PORT, SubtensorPort } from '@rcs/chain';
import { ApiError, ErrorCode } from '@rcs/contracts';
import { REDIS } from '@rcs/queue';
import type { Redis } from 'ioredis';
import { PoolServiceConfig } from '../config/config';
import { POOL_CONFIG } from '../config/config.module';

/**
 * The owner coldkey of a miner's hotkey (DECISIONS.md §11 Sybil resistance): `SubtensorModule::Owner`, cached
 * in Redis for `STAKE_CACHE_SECONDS` like stake decisions. A hotkey the chain records no owner for is its own
 * owner. The chain unreachable → 503 `chain_unavailable` (fail closed, like the stake gate). With the stake gate
 * off, owners are the only Sybil resistance left: said once at boot.
 */
@Injectable()
export class MinerOwners implements OnApplicationBootstrap {
  private readonly logger = new Logger(MinerOwners.name);
  private readonly keyPrefix: string;

  constructor(
    @Inject(SUBTENSOR_PORT) private readonly subtensor: SubtensorPort,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(POOL_CONFIG) private readonly config: PoolServiceConfig,
  ) {
    this.keyPrefix = `${config.redisKeyPrefix}:owner:`;
  }

  onApplicationBootstrap(): void {
    if (!this.config.stake.check) this.logger.warn('POOL_STAKE_CHECK=off: any key may mine without stake (local stacks and tests only; DECISIONS.md §11).');
  }

  async ownerOf(hotkey: string): Promise<string> {
    const key = this.keyPrefix + hotkey;
    const cached = await this.redis.get(key);
    if (cached !== null) return cached;
    const owner = (await this.readChain(hotkey)) ?? hotkey;
    if (this.config.stake.cacheSeconds > 0) await this.redis.set(key, owner, 'EX', this.config.stake.cacheSeconds);
    return owner;
  }

  private async readChain(hotkey: string): Promise<string | null> {
    try {
      return await this.subtensor.ownerOf(hotkey);
    } catch (error) {
      if (error instanceof ChainUnavailableError) {
        throw ApiError.unavailable(ErrorCode.ChainUnavailable, 'The chain cannot be reached to read the hotkey’s owner; retry later.');
      }
      throw error;
    }
  }
}
