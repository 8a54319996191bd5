import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { ApiError, ErrorCode } from '@rcs/contracts';
import { RedisScript } from '@rcs/auth';
import { REDIS } from '@rcs/queue';
import { COORDINATOR_CONFIG } from '../config/config.module';
import { CoordinatorConfig, RateLimit } from '../config/config';

export type RateLimitedAction = 'claim' | 'submission';

// INCR and set the window's expiry on the first hit, atomically; answers [count, ms left in window].
const CONSUME = new RedisScript(
  `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {count, ttl}
`,
  1,
);

/**
 * Per-hotkey fixed-window limits on claim and submission creation, counted in Redis so every API
 * replica shares them. Over the limit: 429 `rate_limited` with `Retry-After`.
 */
@Injectable()
export class RateLimitService {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(COORDINATOR_CONFIG) private readonly config: CoordinatorConfig,
  ) {}

  async consume(action: RateLimitedAction, hotkey: string): Promise<void> {
    const limit: RateLimit = action === 'claim' ? this.config.claimRateLimit : this.config.submissionRateLimit;
    if (limit.max === 0) return;
    const key = `${this.config.redisKeyPrefix}:ratelimit:${action}:${hotkey}`;
    const [count, ttlMs] = (await CONSUME.run(this.redis, [key], [limit.windowSeconds * 1000])) as [number, number];
    if (count > limit.max) {
      const retryAfter = Math.max(1, Math.ceil(ttlMs / 1000));
      throw new ApiError(
        ErrorCode.RateLimited,
        `Too many ${action} requests for this hotkey: at most ${limit.max} per ${limit.windowSeconds} s. Retry in ${retryAfter} s.`,
        { limit: limit.max, window_seconds: limit.windowSeconds, retry_after_seconds: retryAfter },
        { 'retry-after': String(retryAfter) },
      );
    }
  }
}
