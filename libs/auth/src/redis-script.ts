import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/** Redis's answer to EVALSHA for a script it does not hold (first use, after a restart or SCRIPT FLUSH). */
function isNoScript(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('NOSCRIPT');
}

/**
 * A Lua script run by its SHA1 (`EVALSHA`), so a hot path sends 40 bytes instead of the script's
 * text on every call; the text goes over (`EVAL`, which also loads it) only when Redis answers
 * NOSCRIPT. Unlike ioredis's `defineCommand`, it does not add commands to a shared client. Used on
 * the request path: the replay guard here, the coordinator's rate limits.
 */
export class RedisScript {
  readonly sha1: string;

  constructor(
    readonly lua: string,
    readonly numberOfKeys: number,
  ) {
    this.sha1 = createHash('sha1').update(lua).digest('hex');
  }

  async run(redis: Redis, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    if (keys.length !== this.numberOfKeys) throw new TypeError(`this script takes ${this.numberOfKeys} key(s), got ${keys.length}`);
    try {
      return await redis.evalsha(this.sha1, keys.length, ...keys, ...args);
    } catch (error) {
      if (!isNoScript(error)) throw error;
      return redis.eval(this.lua, keys.length, ...keys, ...args);
    }
  }
}
