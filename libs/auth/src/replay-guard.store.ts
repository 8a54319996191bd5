import type { Redis } from 'ioredis';

export const DEFAULT_REPLAY_KEY_PREFIX = 'auth:replay:';

/** Remembers accepted signatures in Redis so that each is accepted once (DECISIONS.md §2). */
export class ReplayGuardStore {
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string = DEFAULT_REPLAY_KEY_PREFIX,
  ) {}

  /**
   * True the first time `(hotkey, signature)` is seen within `ttlSeconds`, false on reuse.
   * Pass stable spellings (the verification flow passes the public key and lowercase signature hex).
   */
  async rememberOnce(hotkey: string, signature: string, ttlSeconds: number): Promise<boolean> {
    const key = `${this.keyPrefix}${hotkey}:${signature}`;
    // Redis refuses EX 0 and fractions.
    const stored = await this.redis.set(key, '1', 'EX', Math.max(1, Math.ceil(ttlSeconds)), 'NX');
    return stored === 'OK';
  }
}
