import { ApiError, ErrorCode } from '@rcs/contracts';
import type { Redis } from 'ioredis';
import { ChainUnavailableError } from '../errors';
import type { SubtensorPort } from '../ports/subtensor.port';

export interface CachedOwnerReaderOptions {
  /** Redis key prefix of the cached owners (an app's own, e.g. `<REDIS_KEY_PREFIX>:owner:`). */
  keyPrefix: string;
  /** How long an owner is kept (`STAKE_CACHE_SECONDS`, like stake decisions); 0 reads the chain each time. */
  cacheSeconds: number;
  /** The address spelling to answer in; null for a string that is not one (then the hotkey is its own owner, unread). */
  canonical?: (address: string) => string | null;
}

/**
 * The owner coldkey of a miner's hotkey (DECISIONS.md §6, §9 `Owner`; §11 Sybil resistance):
 * `SubtensorModule::Owner`, cached in Redis. A hotkey the chain records no owner for is its own owner.
 * The chain unreachable → 503 `chain_unavailable` (fail closed, like the stake gate).
 */
export class CachedOwnerReader {
  constructor(
    private readonly subtensor: SubtensorPort,
    private readonly redis: Redis,
    private readonly options: CachedOwnerReaderOptions,
  ) {}

  async ownerOf(hotkey: string): Promise<string> {
    const canonical = this.options.canonical;
    // Not an address (rows older than the canonical spelling): the chain can record no owner for it.
    if (canonical && canonical(hotkey) === null) return hotkey;
    const key = this.options.keyPrefix + hotkey;
    const cached = await this.redis.get(key);
    if (cached !== null) return cached;
    const read = await this.readChain(hotkey);
    const owner = (read === null ? null : canonical ? canonical(read) : read) ?? hotkey;
    if (this.options.cacheSeconds > 0) await this.redis.set(key, owner, 'EX', this.options.cacheSeconds);
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
