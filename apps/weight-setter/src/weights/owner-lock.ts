import type { Redis } from 'ioredis';

// Renew or release only while the lock still holds our token (never someone else's).
const RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/**
 * One owner per validator hotkey (DECISIONS §12): a Redis key with a TTL whose value is a fencing
 * token, a number that only grows (INCR), so a pass checks right before it submits that the lock
 * still carries the token it started with; an owner that stalled past its TTL cannot submit.
 */
export class OwnerLock {
  #token: number | null = null;

  constructor(
    private readonly redis: Redis,
    private readonly key: string,
    private readonly ttlMs: number,
  ) {}

  /** `<prefix>:weights:owner:<hotkey>` */
  static keyFor(prefix: string, hotkey: string): string {
    return `${prefix}:weights:owner:${hotkey}`;
  }

  /** The fencing token while this process believes it owns the lock, else null. */
  get token(): number | null {
    return this.#token;
  }

  /** Whether this process believes it owns the lock (it holds a fencing token). */
  get held(): boolean {
    return this.#token !== null;
  }

  /** Takes the lock when nobody holds it; returns the new fencing token, or null. */
  async tryAcquire(): Promise<number | null> {
    const token = await this.redis.incr(`${this.key}:fence`);
    const taken = await this.redis.set(this.key, String(token), 'PX', this.ttlMs, 'NX');
    this.#token = taken === 'OK' ? token : null;
    return this.#token;
  }

  /** Extends the TTL; false (and no token any more) when the lock lapsed or another process holds it. */
  async renew(): Promise<boolean> {
    if (this.#token === null) return false;
    const renewed = Number(await this.redis.eval(RENEW, 1, this.key, String(this.#token), String(this.ttlMs)));
    if (renewed !== 1) this.#token = null;
    return renewed === 1;
  }

  /** Whether the lock still carries `token` (checked right before a submission). */
  async holds(token: number): Promise<boolean> {
    return (await this.redis.get(this.key)) === String(token);
  }

  /** The current owner's token as stored in Redis, whoever it is. */
  async currentToken(): Promise<number | null> {
    const value = await this.redis.get(this.key);
    return value === null ? null : Number(value);
  }

  async release(): Promise<void> {
    const token = this.#token;
    this.#token = null;
    if (token !== null) await this.redis.eval(RELEASE, 1, this.key, String(token));
  }
}
