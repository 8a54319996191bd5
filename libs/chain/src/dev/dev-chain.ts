import { toSs58 } from '../address';
import type { SubtensorPort } from '../ports/subtensor.port';
import { emptyDevChainSeed, type DevChainSeed } from './dev-chain-seed';

export const DEFAULT_DEV_BLOCK_TIME_MS = 12_000;

export interface DevChainOptions {
  seed?: DevChainSeed;
  /** Milliseconds per block; Subtensor's 12 s by default. */
  blockTimeMs?: number;
  /** Clock in epoch milliseconds, injectable for tests. */
  now?: () => number;
  /** When block 0 was produced; the clock's reading at construction by default. */
  genesisMs?: number;
}

interface DevSubnet {
  stakes: Map<string, bigint>;
  uids: Map<string, number>;
  /** Index = uid, like `SubtensorModule::Keys`. */
  keys: string[];
}

/**
 * The in-process chain of the embedded default and tests: blocks advance with the clock,
 * stakes and uids come from the seed and from the admin mutators below. Hotkeys are
 * compared by account, whatever SS58 prefix they are written with.
 */
export class DevChain implements SubtensorPort {
  readonly #subnets = new Map<number, DevSubnet>();
  readonly #now: () => number;
  readonly #genesisMs: number;
  readonly #blockTimeMs: number;

  constructor(options: DevChainOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.#genesisMs = options.genesisMs ?? this.#now();
    this.#blockTimeMs = options.blockTimeMs ?? DEFAULT_DEV_BLOCK_TIME_MS;
    for (const [netuid, neurons] of (options.seed ?? emptyDevChainSeed()).subnets) {
      const subnet = this.#subnet(netuid);
      for (const { hotkey, stake, uid } of neurons) {
        subnet.stakes.set(hotkey, stake);
        if (uid !== null) {
          subnet.uids.set(hotkey, uid);
          subnet.keys[uid] = hotkey;
        }
      }
    }
  }

  /** Synchronous twin of `latestBlock()` for in-process callers. */
  currentBlock(): number {
    return this.blockSince(this.#genesisMs);
  }

  /** When this chain's block 0 was produced (epoch ms). */
  get genesisMs(): number {
    return this.#genesisMs;
  }

  /** The block now, on this clock and block time, of a chain whose block 0 was produced at `genesisMs`. */
  blockSince(genesisMs: number): number {
    return Math.max(0, Math.floor((this.#now() - genesisMs) / this.#blockTimeMs));
  }

  async latestBlock(): Promise<number> {
    return this.currentBlock();
  }

  async alphaStake(hotkey: string, netuid: number): Promise<bigint> {
    return this.#subnets.get(netuid)?.stakes.get(toSs58(hotkey)) ?? 0n;
  }

  async uidOf(hotkey: string, netuid: number): Promise<number | null> {
    return this.#subnets.get(netuid)?.uids.get(toSs58(hotkey)) ?? null;
  }

  async metagraphHotkeys(netuid: number): Promise<string[]> {
    return [...(this.#subnets.get(netuid)?.keys ?? [])];
  }

  async close(): Promise<void> {
    // Nothing to release: the dev chain lives in this process.
  }

  setStake(hotkey: string, netuid: number, rao: bigint): void {
    if (rao < 0n) throw new RangeError(`stake must not be negative, got ${rao}`);
    this.#subnet(netuid).stakes.set(toSs58(hotkey), rao);
  }

  /** Gives the hotkey the next free uid on the subnet, or returns the uid it already holds. */
  register(hotkey: string, netuid: number): number {
    const subnet = this.#subnet(netuid);
    const ss58 = toSs58(hotkey);
    const existing = subnet.uids.get(ss58);
    if (existing !== undefined) return existing;
    const uid = subnet.keys.length;
    subnet.uids.set(ss58, uid);
    subnet.keys.push(ss58);
    return uid;
  }

  #subnet(netuid: number): DevSubnet {
    let subnet = this.#subnets.get(netuid);
    if (!subnet) {
      subnet = { stakes: new Map(), uids: new Map(), keys: [] };
      this.#subnets.set(netuid, subnet);
    }
    return subnet;
  }
}
