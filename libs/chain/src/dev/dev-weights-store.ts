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

/**
 * Where the dev chain keeps weights and `LastUpdate`. The services of one local stack share one dev
 * chain (DECISIONS §9), so the stack uses the Redis store; tests of one process may use memory.
 */
export interface DevWeightsStore {
  record(entry: DevWeightsRecord): Promise<void>;
  /** The last weights of every uid that set some, by uid ascending. */
  all(netuid: number): Promise<DevWeightsRecord[]>;
}

export class InMemoryDevWeightsStore implements DevWeightsStore {
  readonly #records = new Map<string, DevWeightsRecord>();

  async record(entry: DevWeightsRecord): Promise<void> {
    this.#records.set(`${entry.netuid}/${entry.uid}`, { ...entry });
  }

  async all(netuid: number): Promise<DevWeightsRecord[]> {
    return [...this.#records.values()].filter((r) => r.netuid === netuid).sort((a, b) => a.uid - b.uid);
  }
}

/** One Redis hash per subnet, `<prefix>:devchain:weights:<netuid>`, field = uid, value = the record as JSON. */
export class RedisDevWeightsStore implements DevWeightsStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async record(entry: DevWeightsRecord): Promise<void> {
    await this.redis.hset(this.#key(entry.netuid), String(entry.uid), JSON.stringify(entry));
  }

  async all(netuid: number): Promise<DevWeightsRecord[]> {
    const fields = await this.redis.hgetall(this.#key(netuid));
    return Object.values(fields)
      .map((text) => JSON.parse(text) as DevWeightsRecord)
      .sort((a, b) => a.uid - b.uid);
  }

  #key(netuid: number): string {
    return `${this.prefix}:devchain:weights:${netuid}`;
  }
}

/**
 * The dev chain's genesis time, shared through Redis (the first process to ask sets it), so every
 * service of a stack counts the same blocks.
 */
export async function sharedDevGenesisMs(redis: Redis, prefix: string, nowMs = Date.now()): Promise<number> {
  const key = `${prefix}:devchain:genesis_ms`;
  await redis.set(key, String(nowMs), 'NX');
  return Number(await redis.get(key));
}
