import { Inject, Injectable } from '@nestjs/common';
import { canonicalSs58 } from '@rcs/auth';
import { ChainUnavailableError, SUBTENSOR_PORT, SubtensorPort } from '@rcs/chain';
import { ApiError, ErrorCode } from '@rcs/contracts';
import { REDIS } from '@rcs/queue';
import type { Redis } from 'ioredis';
import { CoordinatorConfig } from '../config/config';
import { COORDINATOR_CONFIG } from '../config/config.module';

/**
 * The owner coldkey of a miner's hotkey (DECISIONS.md §6, §9 `Owner`), as the pool reads it for its Sybil
 * grouping (§11): `SubtensorModule::Owner`, cached in Redis for `STAKE_CACHE_SECONDS`. A hotkey the chain records
 * no owner for is its own owner. The chain unreachable → 503 `chain_unavailable` (fail closed, like the stake
 * gate): an evaluation whose owner is unknown could let one owner count twice.
 */
@Injectable()
export class MinerOwners {
  private readonly keyPrefix: string;

  constructor(
    @Inject(SUBTENSOR_PORT) private readonly subtensor: SubtensorPort,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(COORDINATOR_CONFIG) private readonly config: CoordinatorConfig,
  ) {
    this.keyPrefix = `${config.redisKeyPrefix}:coordinator:owner:`;
  }

  /** The canonical SS58 owner of `hotkey` (itself canonical). */
  async ownerOf(hotkey: string): Promise<string> {
    // Not an address (rows older than the canonical spelling): the chain can record no owner for it.
    if (canonicalSs58(hotkey) === null) return hotkey;
    const key = this.keyPrefix + hotkey;
    const cached = await this.redis.get(key);
    if (cached !== null) return cached;
    const read = await this.readChain(hotkey);
    const owner = (read === null ? null : canonicalSs58(read)) ?? hotkey;
    if (this.config.stakeCacheSeconds > 0) await this.redis.set(key, owner, 'EX', this.config.stakeCacheSeconds);
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
