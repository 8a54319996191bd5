import type { Redis } from 'ioredis';
import { RedisScript } from './redis-script';

export const DEFAULT_REPLAY_KEY_PREFIX = 'auth:replay:';

/** Key (under the prefix) holding the unix second since which the store is known to hold every used signature. */
export const REPLAY_STORE_SINCE_KEY = 'store-since';

/** What `rememberOnce` decided. */
export type ReplayVerdict =
  /** First use: remembered. */
  | 'accepted'
  /** Used before within the window. */
  | 'replayed'
  /** Timestamped before the store was (found) empty: it may have been used before the store lost it. */
  | 'predates_store';

// Atomic: the store's start is read (or set, when the store is found empty) together with the nonce.
// KEYS: nonce, store-since. ARGV: ttl seconds, request timestamp, now (unix seconds).
const REMEMBER_ONCE = new RedisScript(
  `
local since = redis.call('GET', KEYS[2])
if not since then
  redis.call('SET', KEYS[2], ARGV[3])
  since = ARGV[3]
end
if tonumber(ARGV[2]) < tonumber(since) then return -1 end
if redis.call('SET', KEYS[1], '1', 'EX', ARGV[1], 'NX') then return 1 end
return 0
`,
  2,
);

// Remembers a signature without refusing a reuse; like REMEMBER_ONCE it records the store's start when it finds none.
// KEYS: nonce, store-since. ARGV: ttl seconds, now (unix seconds).
const REMEMBER = new RedisScript(
  `
if not redis.call('GET', KEYS[2]) then redis.call('SET', KEYS[2], ARGV[2]) end
redis.call('SET', KEYS[1], '1', 'EX', ARGV[1], 'NX')
return 1
`,
  2,
);

/**
 * Remembers accepted signatures in Redis so that each is accepted once (DECISIONS.md §2). A Redis
 * that restarts empty forgets them: the store records since when it holds every used signature
 * (set at boot, on every reconnect and by the first write that finds it missing) and refuses
 * signatures timestamped before that moment, so an emptied store never reopens the replay window.
 */
export class ReplayGuardStore {
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string = DEFAULT_REPLAY_KEY_PREFIX,
  ) {}

  /**
   * `accepted` the first time `(hotkey, signature)` is seen within `ttlSeconds`, `replayed` on reuse,
   * `predates_store` when `timestamp` is older than the moment the store was found empty.
   * Pass stable spellings (the verification flow passes the public key and lowercase signature hex).
   */
  async rememberOnce(hotkey: string, signature: string, ttlSeconds: number, timestamp: number, now: number): Promise<ReplayVerdict> {
    // Redis refuses EX 0 and fractions.
    const ttl = Math.max(1, Math.ceil(ttlSeconds));
    const verdict = (await REMEMBER_ONCE.run(this.redis, [this.nonceKey(hotkey, signature), this.sinceKey()], [ttl, timestamp, Math.floor(now)])) as number;
    return verdict === 1 ? 'accepted' : verdict === 0 ? 'replayed' : 'predates_store';
  }

  /**
   * Remembers `(hotkey, signature)` for `ttlSeconds` without refusing a reuse: a signature a read has
   * used is then spent for `rememberOnce` (the reads that may repeat it never spend it for themselves).
   */
  async remember(hotkey: string, signature: string, ttlSeconds: number, now: number): Promise<void> {
    await REMEMBER.run(this.redis, [this.nonceKey(hotkey, signature), this.sinceKey()], [Math.max(1, Math.ceil(ttlSeconds)), Math.floor(now)]);
  }

  /** Records `now` as the store's start unless one is recorded; true when it was missing (the store was empty). */
  async markStart(now: number): Promise<boolean> {
    return (await this.redis.set(this.sinceKey(), String(Math.floor(now)), 'NX')) === 'OK';
  }

  /** The recorded start (unix seconds), or null when none is recorded. */
  async start(): Promise<number | null> {
    const since = await this.redis.get(this.sinceKey());
    return since === null ? null : Number(since);
  }

  /**
   * Marks the start now and whenever the connection becomes ready again (a Redis that restarted
   * empty is found at once, not at the next signed write). Returns a function that stops watching.
   */
  watch(clock: () => number, onError: (error: Error) => void): () => void {
    const mark = (): void => {
      this.markStart(clock()).catch(onError);
    };
    this.redis.on('ready', mark);
    if (this.redis.status === 'ready') mark();
    return () => this.redis.off('ready', mark);
  }

  private nonceKey(hotkey: string, signature: string): string {
    return `${this.keyPrefix}${hotkey}:${signature}`;
  }

  private sinceKey(): string {
    return `${this.keyPrefix}${REPLAY_STORE_SINCE_KEY}`;
  }
}
