import { Inject, Injectable, Logger } from '@nestjs/common';
import { ApiError, ErrorCode } from '@rcs/contracts';
import { AUTH_OPTIONS, type AuthOptions, type StakeGateOptions } from './auth.options';

export const DEFAULT_STAKE_CACHE_KEY_PREFIX = 'auth:stake:';

/** A decision as cached in Redis: `pass`, or `fail:<observed rao>` to rebuild the 403. */
type Decision = { pass: true } | { pass: false; observed: bigint };

/** The miner stake gate (DECISIONS.md §2): enough alpha stake on the subnet, or a uid there. */
@Injectable()
export class StakeGate {
  private readonly logger = new Logger(StakeGate.name);
  private readonly keyPrefix: string;

  constructor(@Inject(AUTH_OPTIONS) private readonly options: AuthOptions) {
    this.keyPrefix = options.stakeCacheKeyPrefix ?? DEFAULT_STAKE_CACHE_KEY_PREFIX;
  }

  /** Throws 403 `insufficient_miner_stake`, or 503 `chain_unavailable` when the chain cannot answer. */
  async assertStaked(hotkey: string): Promise<void> {
    const stake = this.options.stake;
    if (stake === null) return;
    const key = `${this.keyPrefix}${stake.netuid}:${hotkey}`;
    const cached = await this.options.redis.get(key);
    const decision = cached === null ? await this.decide(stake, hotkey) : parse(cached);
    if (cached === null && stake.cacheSeconds > 0) {
      await this.options.redis.set(key, decision.pass ? 'pass' : `fail:${decision.observed}`, 'EX', stake.cacheSeconds);
    }
    if (!decision.pass) {
      throw ApiError.forbidden(
        ErrorCode.InsufficientMinerStake,
        'This hotkey holds neither the minimum alpha stake nor a uid on the subnet; stake or register it and retry.',
        { hotkey, netuid: stake.netuid, required: stake.minStakeRao.toString(), observed: decision.observed.toString() },
      );
    }
  }

  private async decide(stake: StakeGateOptions, hotkey: string): Promise<Decision> {
    try {
      const observed = await stake.source.alphaStake(hotkey, stake.netuid);
      if (observed >= stake.minStakeRao) return { pass: true };
      return (await stake.source.uidOf(hotkey, stake.netuid)) === null ? { pass: false, observed } : { pass: true };
    } catch (error) {
      this.logger.warn(`stake check failed for ${hotkey}: ${error instanceof Error ? error.message : String(error)}`);
      throw ApiError.unavailable(ErrorCode.ChainUnavailable, 'The chain cannot be reached to check miner stake; retry later.');
    }
  }
}

function parse(cached: string): Decision {
  return cached === 'pass' ? { pass: true } : { pass: false, observed: BigInt(cached.slice('fail:'.length)) };
}
