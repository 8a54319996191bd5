import type { Redis } from 'ioredis';

/** The weights one hotkey last set on the dev chain (what `set_weights` stores, plus where it landed). */
export interface DevWeightsRecord {
  netuid: number;
  uid: number;
  hotkey: string;
  uids: number[];
  values: number[];
  versionKey: number;
  block: number;
  txHash: string;
}

/** A timelocked commit as the dev chain keeps it in `TimelockedWeightCommits(netuid, epoch)`. */
export interface DevCommitRecord {
  hotkey: string;
  commitBlock: number;
  /** 0x hex of the ciphertext. */
  commit: string;
  /** Decimal: a u64. */
  revealRound: string;
  txHash: string;
}

/**
 * Where the dev chain keeps weights, `LastUpdate` and timelocked commits. The services of one local
 * stack share one dev chain (DECISIONS §9), so the stack uses the Redis store; tests of one process may
 * use memory.
 */
export interface DevWeightsStore {
  /** Stores the weights and moves the uid's `LastUpdate` to their block. */
  record(entry: DevWeightsRecord): Promise<void>;
  /** The last weights of every uid that set some, by uid ascending. */
  all(netuid: number): Promise<DevWeightsRecord[]>;
  /** Moves the uid's `LastUpdate` (a commit does, without weights). */
  touch(netuid: number, uid: number, block: number): Promise<void>;
  /** `LastUpdate` by uid, for the uids that have one. */
  lastUpdates(netuid: number): Promise<Map<number, number>>;
  addCommit(netuid: number, epoch: number, commit: DevCommitRecord): Promise<void>;
  /** Every held commit by epoch, epochs ascending, each epoch's in commit order. */
  commits(netuid: number): Promise<Map<number, DevCommitRecord[]>>;
  /** Removes revealed, dropped or expired commits (compared by value). */
  removeCommits(netuid: number, epoch: number, commits: DevCommitRecord[]): Promise<void>;
  /**
   * Runs `work` when no other caller is revealing this subnet's commits; else waits until that one is
   * done and returns false (it revealed them), so a reader never sees a reveal half-applied.
   */
  whileRevealing(netuid: number, work: () => Promise<void>): Promise<boolean>;
}

export class InMemoryDevWeightsStore implements DevWeightsStore {
  readonly #records = new Map<string, DevWeightsRecord>();
  readonly #lastUpdate = new Map<string, number>();
  readonly #commits = new Map<number, Map<number, DevCommitRecord[]>>();
  readonly #revealing = new Map<number, Promise<void>>();

  async record(entry: DevWeightsRecord): Promise<void> {
    this.#records.set(`${entry.netuid}/${entry.uid}`, { ...entry });
    await this.touch(entry.netuid, entry.uid, entry.block);
  }

  async all(netuid: number): Promise<DevWeightsRecord[]> {
    return [...this.#records.values()].filter((r) => r.netuid === netuid).sort((a, b) => a.uid - b.uid);
  }

  async touch(netuid: number, uid: number, block: number): Promise<void> {
    this.#lastUpdate.set(`${netuid}/${uid}`, block);
  }

  async lastUpdates(netuid: number): Promise<Map<number, number>> {
    const blocks = new Map<number, number>();
    for (const [key, block] of this.#lastUpdate) {
      const [n, uid] = key.split('/').map(Number);
      if (n === netuid) blocks.set(uid, block);
    }
    return blocks;
  }

  async addCommit(netuid: number, epoch: number, commit: DevCommitRecord): Promise<void> {
    const epochs = this.#commits.get(netuid) ?? new Map<number, DevCommitRecord[]>();
    this.#commits.set(netuid, epochs);
    epochs.set(epoch, [...(epochs.get(epoch) ?? []), { ...commit }]);
  }

  async commits(netuid: number): Promise<Map<number, DevCommitRecord[]>> {
    const epochs = [...(this.#commits.get(netuid) ?? new Map<number, DevCommitRecord[]>()).entries()].filter(([, list]) => list.length > 0);
    return new Map(epochs.sort(([a], [b]) => a - b).map(([epoch, list]) => [epoch, list.map((c) => ({ ...c }))]));
  }

  async removeCommits(netuid: number, epoch: number, commits: DevCommitRecord[]): Promise<void> {
    const epochs = this.#commits.get(netuid);
    const gone = new Set(commits.map((c) => JSON.stringify(c)));
    epochs?.set(epoch, (epochs.get(epoch) ?? []).filter((c) => !gone.has(JSON.stringify(c))));
  }

  async whileRevealing(netuid: number, work: () => Promise<void>): Promise<boolean> {
    const running = this.#revealing.get(netuid);
    if (running) {
      await running.catch(() => undefined);
      return false;
    }
    const done = work();
    this.#revealing.set(netuid, done);
    try {
      await done;
      return true;
    } finally {
      this.#revealing.delete(netuid);
    }
  }
}

/** How long a revealing process may hold the subnet's reveal lock before another may take over. */
const REVEAL_LOCK_MS = 10_000;
/** How often a reader waiting for another process's reveal looks again. */
const REVEAL_WAIT_STEP_MS = 20;

/**
 * Under `{<prefix>:devchain}:` (`devChainKey`): `weights:<netuid>` (hash, field = uid, value = the record as JSON),
 * `last-update:<netuid>` (hash uid → block), `commits:<netuid>:<epoch>` (list of JSON commits) with
 * `commit-epochs:<netuid>` (set of epochs that hold some), and `reveal-lock:<netuid>`.
 */
export class RedisDevWeightsStore implements DevWeightsStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async record(entry: DevWeightsRecord): Promise<void> {
    await this.redis
      .multi()
      .hset(this.#key('weights', entry.netuid), String(entry.uid), JSON.stringify(entry))
      .hset(this.#key('last-update', entry.netuid), String(entry.uid), String(entry.block))
      .exec();
  }

  async all(netuid: number): Promise<DevWeightsRecord[]> {
    const fields = await this.redis.hgetall(this.#key('weights', netuid));
    return Object.values(fields)
      .map((text) => JSON.parse(text) as DevWeightsRecord)
      .sort((a, b) => a.uid - b.uid);
  }

  async touch(netuid: number, uid: number, block: number): Promise<void> {
    await this.redis.hset(this.#key('last-update', netuid), String(uid), String(block));
  }

  async lastUpdates(netuid: number): Promise<Map<number, number>> {
    const fields = await this.redis.hgetall(this.#key('last-update', netuid));
    return new Map(Object.entries(fields).map(([uid, block]) => [Number(uid), Number(block)]));
  }

  async addCommit(netuid: number, epoch: number, commit: DevCommitRecord): Promise<void> {
    await this.redis
      .multi()
      .rpush(this.#key('commits', netuid, epoch), JSON.stringify(commit))
      .sadd(this.#key('commit-epochs', netuid), String(epoch))
      .exec();
  }

  async commits(netuid: number): Promise<Map<number, DevCommitRecord[]>> {
    const epochs = (await this.redis.smembers(this.#key('commit-epochs', netuid))).map(Number).sort((a, b) => a - b);
    if (epochs.length === 0) return new Map();
    const pipeline = this.redis.pipeline();
    for (const epoch of epochs) pipeline.lrange(this.#key('commits', netuid, epoch), 0, -1);
    const lists = (await pipeline.exec()) ?? [];
    const held = new Map<number, DevCommitRecord[]>();
    epochs.forEach((epoch, i) => {
      const [error, list] = lists[i] ?? [null, []];
      if (error) throw error;
      const entries = (list as string[]).map((text) => JSON.parse(text) as DevCommitRecord);
      if (entries.length > 0) held.set(epoch, entries);
    });
    return held;
  }

  async removeCommits(netuid: number, epoch: number, commits: DevCommitRecord[]): Promise<void> {
    if (commits.length === 0) return;
    const key = this.#key('commits', netuid, epoch);
    const multi = this.redis.multi();
    for (const commit of commits) multi.lrem(key, 1, JSON.stringify(commit));
    await multi.exec();
    if ((await this.redis.llen(key)) === 0) await this.redis.srem(this.#key('commit-epochs', netuid), String(epoch));
  }

  async whileRevealing(netuid: number, work: () => Promise<void>): Promise<boolean> {
    const lock = this.#key('reveal-lock', netuid);
    const token = `${process.pid}-${Math.random()}`;
    if ((await this.redis.set(lock, token, 'PX', REVEAL_LOCK_MS, 'NX')) !== 'OK') {
      // Another process reveals: wait for it (its lock lapses at worst), then read what it applied.
      while ((await this.redis.exists(lock)) === 1) await new Promise((resolve) => setTimeout(resolve, REVEAL_WAIT_STEP_MS));
      return false;
    }
    try {
      await work();
      return true;
    } finally {
      // Release only our own lock (it may have lapsed and been taken).
      await this.redis.eval("if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end", 1, lock, token);
    }
  }

  #key(kind: string, netuid: number, epoch?: number): string {
    return devChainKey(this.prefix, `${kind}:${netuid}${epoch === undefined ? '' : `:${epoch}`}`);
  }
}

/**
 * The dev chain's genesis time, shared through Redis (the first process to ask sets it), so every
 * service of a stack counts the same blocks.
 */
export async function sharedDevGenesisMs(redis: Redis, prefix: string, nowMs = Date.now()): Promise<number> {
  const key = sharedGenesisKey(prefix);
  await redis.set(key, String(nowMs), 'NX');
  return Number(await redis.get(key));
}

/** Where a stack's dev-chain block 0 (epoch ms) lives. */
export function sharedGenesisKey(prefix: string): string {
  return devChainKey(prefix, 'genesis_ms');
}

/**
 * A key of a stack's dev chain: every one is under the hash tag `{<prefix>:devchain}`, so a Redis
 * Cluster keeps them in one slot and the chain's transactions and scripts may use any of them together.
 */
export function devChainKey(prefix: string, suffix: string): string {
  return `{${prefix}:devchain}:${suffix}`;
}
