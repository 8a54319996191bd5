import type { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import type { KeyringPair } from '@polkadot/keyring/types';
import { u8aToHex } from '@polkadot/util';
import { decodeWeightsPayload, devBeacon, timelockDecrypt, type DevBeacon } from '@rcs/timelock';
import { accountIdOf, isZeroAccount, toSs58 } from '../address';
import { ExtrinsicFailedError } from '../errors';
import type { CommitTimelockedWeightsRequest, DrandBeaconConfig, SetWeightsRequest, SubtensorPort, TimelockedCommit, WeightsInclusion, WeightsRules } from '../ports/subtensor.port';
import { legacyCommitEpoch, legacyEpochIndex, legacyEpochStartBlock } from '../weights/reveal-schedule';
import { emptyDevChainSeed, type DevChainSeed } from './dev-chain-seed';
import { InMemoryDevWeightsStore, sharedGenesisKey, type DevCommitRecord, type DevWeightsRecord, type DevWeightsStore } from './dev-weights-store';

export const DEFAULT_DEV_BLOCK_TIME_MS = 12_000;
/** Subtensor's default tempo; the local stack runs 10. */
export const DEFAULT_DEV_TEMPO = 360;
export const DEFAULT_DEV_DRAND_SEED = 'rcs-dev-beacon';
/** The dev beacon's period (quicknet's). */
export const DEV_DRAND_PERIOD_SECONDS = 3;
/** `CommitRevealWeightsVersion` of the runtime the dev chain follows (the devnet metadata's default). */
export const DEV_COMMIT_REVEAL_VERSION = 4;
/** Subtensor's cap on one hotkey's unrevealed commits per epoch. */
export const MAX_UNREVEALED_COMMITS = 10;
/** `commit_timelocked_weights` takes at most this many bytes of commit. */
export const MAX_COMMIT_BYTES = 5_000;

export interface DevChainOptions {
  seed?: DevChainSeed;
  /** Milliseconds per block; Subtensor's 12 s by default. */
  blockTimeMs?: number;
  /** Clock in epoch milliseconds, injectable for tests. */
  now?: () => number;
  /** When block 0 was produced; the clock's reading at construction by default. */
  genesisMs?: number;
  /** Where weights and `LastUpdate` live; memory by default, Redis when several processes share the chain. */
  weights?: DevWeightsStore;
  /** `WeightsSetRateLimit` of every subnet (Subtensor's default: 100 blocks). */
  weightsSetRateLimit?: number;
  /** `CommitRevealWeightsEnabled` of every subnet (on, as subtensor's default, unless asked). */
  commitRevealWeightsEnabled?: boolean;
  /** `Tempo` of every subnet. */
  tempo?: number;
  /** `RevealPeriodEpochs` of every subnet (1). */
  revealPeriodEpochs?: number;
  /** The dev beacon's seed (`DEV_DRAND_SEED`): its secret key is sha256(seed) (DECISIONS §12). */
  drandSeed?: string;
  /** `WeightsVersionKey` of every subnet (0). */
  weightsVersionKey?: number;
  /** `MinAllowedWeights` of every subnet (1). */
  minAllowedWeights?: number;
  /**
   * The stack's shared block 0 (DECISIONS §9): kept in Redis under `prefix`, re-checked every
   * `everyMs`. The earliest genesis any process knows wins, so an emptied Redis or a process that
   * started without Redis never re-bases the chain of the others.
   */
  sharedGenesis?: { redis: Redis; prefix: string; everyMs?: number };
}

/** How often a process re-checks the stack's shared genesis. */
export const SHARED_GENESIS_CHECK_MS = 1000;

interface DevSubnet {
  stakes: Map<string, bigint>;
  uids: Map<string, number>;
  /** Index = uid, like `SubtensorModule::Keys`. */
  keys: string[];
}

/**
 * The in-process chain of the embedded default and tests: blocks advance with the clock,
 * stakes, uids and owners come from the seed and from the admin mutators below. Hotkeys are
 * compared by account, whatever SS58 prefix they are written with.
 */
export class DevChain implements SubtensorPort {
  readonly #subnets = new Map<number, DevSubnet>();
  /** `SubtensorModule::Owner`: hotkey → coldkey, both prefix 42; global, not per subnet. */
  readonly #owners = new Map<string, string>();
  readonly #now: () => number;
  #genesisMs: number;
  readonly #blockTimeMs: number;
  readonly #sharedGenesis: DevChainOptions['sharedGenesis'];
  #genesisTimer: NodeJS.Timeout | undefined;
  #genesisSync: Promise<number> | null = null;
  readonly #weights: DevWeightsStore;
  readonly #rateLimit: number;
  readonly #commitReveal: boolean;
  readonly #tempo: number;
  readonly #revealPeriod: number;
  readonly #versionKey: number;
  readonly #minAllowedWeights: number;
  readonly #beacon: DevBeacon;

  constructor(options: DevChainOptions = {}) {
    this.#weights = options.weights ?? new InMemoryDevWeightsStore();
    this.#rateLimit = options.weightsSetRateLimit ?? 100;
    this.#commitReveal = options.commitRevealWeightsEnabled ?? true;
    this.#tempo = options.tempo ?? DEFAULT_DEV_TEMPO;
    this.#revealPeriod = options.revealPeriodEpochs ?? 1;
    this.#versionKey = options.weightsVersionKey ?? 0;
    this.#minAllowedWeights = options.minAllowedWeights ?? 1;
    this.#beacon = devBeacon(options.drandSeed ?? DEFAULT_DEV_DRAND_SEED);
    this.#now = options.now ?? Date.now;
    this.#genesisMs = options.genesisMs ?? this.#now();
    this.#blockTimeMs = options.blockTimeMs ?? DEFAULT_DEV_BLOCK_TIME_MS;
    this.#sharedGenesis = options.sharedGenesis;
    if (this.#sharedGenesis) {
      this.#genesisTimer = setInterval(() => void this.syncSharedGenesis(), this.#sharedGenesis.everyMs ?? SHARED_GENESIS_CHECK_MS);
      this.#genesisTimer.unref();
    }
    for (const [netuid, neurons] of (options.seed ?? emptyDevChainSeed()).subnets) {
      const subnet = this.#subnet(netuid);
      for (const { hotkey, stake, uid, owner } of neurons) {
        subnet.stakes.set(hotkey, stake);
        if (owner !== null) this.#owners.set(hotkey, owner);
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

  async ownerOf(hotkey: string): Promise<string | null> {
    return this.#owners.get(toSs58(hotkey)) ?? null;
  }

  async metagraphHotkeys(netuid: number): Promise<string[]> {
    return [...(this.#subnets.get(netuid)?.keys ?? [])];
  }

  async lastUpdate(netuid: number): Promise<number[]> {
    await this.#revealDue(netuid);
    const size = this.#subnets.get(netuid)?.keys.length ?? 0;
    const blocks = new Array<number>(size).fill(0);
    for (const [uid, block] of await this.#weights.lastUpdates(netuid)) if (uid < size) blocks[uid] = block;
    return blocks;
  }

  async weightsSetRateLimit(_netuid: number): Promise<number> {
    return this.#rateLimit;
  }

  async commitRevealWeightsEnabled(_netuid: number): Promise<boolean> {
    return this.#commitReveal;
  }

  /** Checks what the runtime's `set_weights` checks that matters here, then records the weights in this block. */
  async setWeights(signer: KeyringPair, request: SetWeightsRequest): Promise<WeightsInclusion> {
    const hotkey = toSs58(signer.address);
    if (this.#commitReveal) refuse('CommitRevealEnabled');
    const uid = this.#registeredUid(request.netuid, hotkey);
    const block = this.currentBlock();
    await this.#checkRateLimit(request.netuid, uid, block, 'SettingWeightsTooFast');
    const failure = this.#weightsFailure(request.netuid, uid, request.uids, request.values, request.versionKey);
    if (failure) refuse(failure);
    const txHash = randomHash();
    await this.#weights.record({ netuid: request.netuid, uid, hotkey, uids: [...request.uids], values: [...request.values], versionKey: request.versionKey, block, txHash });
    return { txHash, block, blockHash: blockHashOf(block) };
  }

  /**
   * Takes the commit as subtensor does: nothing of the ciphertext is checked; the reveal, at the epoch
   * `RevealPeriodEpochs` later, decrypts it with the dev beacon's pulse and applies it or drops it.
   */
  async commitTimelockedWeights(signer: KeyringPair, request: CommitTimelockedWeightsRequest): Promise<WeightsInclusion> {
    const hotkey = toSs58(signer.address);
    if (!this.#commitReveal) refuse('CommitRevealDisabled');
    const uid = this.#registeredUid(request.netuid, hotkey);
    if (request.commitRevealVersion !== DEV_COMMIT_REVEAL_VERSION) refuse('IncorrectCommitRevealVersion');
    if (request.commit.length > MAX_COMMIT_BYTES) throw new ExtrinsicFailedError('invalid', `the commit has ${request.commit.length} bytes; the call takes at most ${MAX_COMMIT_BYTES}`);
    const block = this.currentBlock();
    await this.#checkRateLimit(request.netuid, uid, block, 'CommittingWeightsTooFast');
    // Filed as subtensor files it: under the block's epoch, or the next when the block runs the epoch.
    const epoch = legacyCommitEpoch(block, request.netuid, this.#tempo);
    const held = (await this.#weights.commits(request.netuid)).get(epoch) ?? [];
    if (held.filter((c) => c.hotkey === hotkey).length >= MAX_UNREVEALED_COMMITS) refuse('TooManyUnrevealedCommits');
    const txHash = randomHash();
    await this.#weights.addCommit(request.netuid, epoch, { hotkey, commitBlock: block, commit: u8aToHex(request.commit), revealRound: request.revealRound.toString(), txHash });
    await this.#weights.touch(request.netuid, uid, block);
    return { txHash, block, blockHash: blockHashOf(block) };
  }

  async weightsRules(netuid: number): Promise<WeightsRules> {
    const size = this.#subnets.get(netuid)?.keys.length ?? 0;
    return {
      tempo: this.#tempo,
      weightsVersionKey: BigInt(this.#versionKey),
      minAllowedWeights: this.#minAllowedWeights,
      maxWeightsLimit: 65_535,
      // Every registered uid of the dev chain may set weights.
      validatorPermit: new Array<boolean>(size).fill(true),
      subnetSize: size,
      weightsSetRateLimit: this.#rateLimit,
      commitRevealEnabled: this.#commitReveal,
      commitRevealVersion: DEV_COMMIT_REVEAL_VERSION,
      revealPeriodEpochs: this.#revealPeriod,
      blockTimeMs: this.#blockTimeMs,
      epochSchedule: 'legacy',
      epochState: null,
    };
  }

  async drandBeacon(): Promise<DrandBeaconConfig> {
    return { publicKey: this.#beacon.publicKey, genesisTime: this.#beaconGenesisSeconds(), period: DEV_DRAND_PERIOD_SECONDS };
  }

  async timelockedCommits(netuid: number, hotkey: string): Promise<TimelockedCommit[]> {
    await this.#revealDue(netuid);
    const who = toSs58(hotkey);
    const commits: TimelockedCommit[] = [];
    for (const [epoch, list] of await this.#weights.commits(netuid)) {
      for (const c of list) {
        if (c.hotkey === who) commits.push({ epoch, hotkey: c.hotkey, commitBlock: c.commitBlock, commit: hexBytes(c.commit), revealRound: BigInt(c.revealRound) });
      }
    }
    return commits;
  }

  async uidWeights(netuid: number, uid: number): Promise<[number, number][]> {
    await this.#revealDue(netuid);
    const record = (await this.#weights.all(netuid)).find((r) => r.uid === uid);
    return record ? record.uids.map((u, i): [number, number] => [u, record.values[i]]) : [];
  }

  /** The weights every uid of the subnet last set (what the local stack shows). */
  async weightsOf(netuid: number): Promise<DevWeightsRecord[]> {
    await this.#revealDue(netuid);
    return this.#weights.all(netuid);
  }

  /** The dev beacon's pulse of `round`, or null while the round is still in the future on this chain's clock. */
  pulse(round: bigint): Uint8Array | null {
    return this.#pulseAvailableMs(round) <= this.#now() ? this.#beacon.pulse(round) : null;
  }

  /**
   * What subtensor does every block for the subnet, caught up lazily: the commits of epoch
   * `current − RevealPeriodEpochs` are revealed at the first block of that reveal epoch at which their
   * round's pulse exists, with the checks of `set_weights`; a commit that does not decrypt, names another
   * hotkey or breaks a rule is dropped without a trace, and commits of older epochs expire.
   */
  async #revealDue(netuid: number): Promise<void> {
    if (!this.#commitReveal) return;
    const held = await this.#weights.commits(netuid);
    if (held.size === 0) return;
    const now = this.currentBlock();
    const currentEpoch = legacyEpochIndex(now, netuid, this.#tempo);
    if ([...held.keys()].every((epoch) => epoch + this.#revealPeriod > currentEpoch)) return;
    await this.#weights.whileRevealing(netuid, async () => {
      for (const [epoch, list] of await this.#weights.commits(netuid)) {
        const revealEpoch = epoch + this.#revealPeriod;
        if (revealEpoch > currentEpoch) continue;
        const windowStart = legacyEpochStartBlock(revealEpoch, netuid, this.#tempo);
        const windowEnd = legacyEpochStartBlock(revealEpoch + 1, netuid, this.#tempo) - 1;
        const settled: DevCommitRecord[] = [];
        for (const commit of list) {
          const revealBlock = Math.max(windowStart, this.#blockOfMs(this.#pulseAvailableMs(BigInt(commit.revealRound))));
          if (revealBlock > windowEnd) {
            // The pulse came too late for the reveal epoch: the commit expires once that epoch is over.
            if (now > windowEnd) settled.push(commit);
            continue;
          }
          if (revealBlock > now) continue;
          await this.#reveal(netuid, commit, revealBlock);
          settled.push(commit);
        }
        await this.#weights.removeCommits(netuid, epoch, settled);
      }
    });
  }

  /** Decrypts and applies one commit at `block`, or drops it as the chain would (silently). */
  async #reveal(netuid: number, commit: DevCommitRecord, block: number): Promise<void> {
    let payload;
    try {
      payload = decodeWeightsPayload(timelockDecrypt(hexBytes(commit.commit), this.#beacon.pulse(BigInt(commit.revealRound))));
    } catch {
      return;
    }
    if (u8aToHex(payload.hotkey) !== u8aToHex(accountIdOf(commit.hotkey))) return;
    const uid = this.#subnets.get(netuid)?.uids.get(commit.hotkey);
    if (uid === undefined) return;
    if (this.#weightsFailure(netuid, uid, payload.uids, payload.values, Number(payload.versionKey)) !== null) return;
    await this.#weights.record({ netuid, uid, hotkey: commit.hotkey, uids: payload.uids, values: payload.values, versionKey: Number(payload.versionKey), block, txHash: commit.txHash });
  }

  #registeredUid(netuid: number, hotkey: string): number {
    const uid = this.#subnets.get(netuid)?.uids.get(hotkey);
    return uid === undefined ? refuse('HotKeyNotRegisteredInSubNet') : uid;
  }

  async #checkRateLimit(netuid: number, uid: number, block: number, error: string): Promise<void> {
    const last = (await this.#weights.lastUpdates(netuid)).get(uid) ?? 0;
    if (last !== 0 && block - last <= this.#rateLimit) refuse(error);
  }

  /** The module error `set_weights` would answer for this vector, or null. */
  #weightsFailure(netuid: number, uid: number, uids: number[], values: number[], versionKey: number): string | null {
    const size = this.#subnets.get(netuid)?.keys.length ?? 0;
    if (uids.length !== values.length) return 'WeightVecNotEqualSize';
    if (new Set(uids).size !== uids.length) return 'DuplicateUids';
    if (uids.some((u) => u >= size)) return 'UidVecContainInvalidOne';
    if (versionKey < this.#versionKey) return 'IncorrectWeightVersionKey';
    const selfWeight = uids.length === 1 && uids[0] === uid;
    if (!selfWeight && uids.length < Math.min(this.#minAllowedWeights, size)) return 'WeightVecLengthIsLow';
    return null;
  }

  #beaconGenesisSeconds(): number {
    return Math.floor(this.#genesisMs / 1000);
  }

  /** drand's round n is produced at genesis + (n − 1)·period. */
  #pulseAvailableMs(round: bigint): number {
    return (this.#beaconGenesisSeconds() + Math.max(0, Number(round) - 1) * DEV_DRAND_PERIOD_SECONDS) * 1000;
  }

  #blockOfMs(ms: number): number {
    return Math.max(0, Math.ceil((ms - this.#genesisMs) / this.#blockTimeMs));
  }

  async close(): Promise<void> {
    // The chain lives in this process; only the shared-genesis timer is released.
    // A check still in flight settles on its own (its Redis closes with the adapters).
    clearInterval(this.#genesisTimer);
  }

  /**
   * Agrees with the stack on block 0: writes this process's genesis when Redis holds none (it came
   * back empty) or a later one (written by a process that started meanwhile), and adopts an earlier
   * one (this process counted from its own start). Redis down: keeps counting. Answers the genesis.
   */
  syncSharedGenesis(): Promise<number> {
    const shared = this.#sharedGenesis;
    if (!shared) return Promise.resolve(this.#genesisMs);
    this.#genesisSync ??= (async () => {
      try {
        const key = sharedGenesisKey(shared.prefix);
        const stored = await shared.redis.get(key);
        if (stored === null || Number(stored) > this.#genesisMs) await shared.redis.set(key, String(this.#genesisMs));
        else this.#genesisMs = Number(stored);
      } catch {
        // Redis unreachable: the next check agrees again.
      }
      return this.#genesisMs;
    })().finally(() => {
      this.#genesisSync = null;
    });
    return this.#genesisSync;
  }

  setStake(hotkey: string, netuid: number, rao: bigint): void {
    if (rao < 0n) throw new RangeError(`stake must not be negative, got ${rao}`);
    this.#subnet(netuid).stakes.set(toSs58(hotkey), rao);
  }

  /** Records `owner` (a coldkey, any SS58 prefix) as the hotkey's owner on every subnet; null removes the record. */
  setOwner(hotkey: string, owner: string | null): void {
    const ss58 = toSs58(hotkey);
    if (owner === null) {
      this.#owners.delete(ss58);
      return;
    }
    if (isZeroAccount(owner)) throw new RangeError('the all-zero account is how the chain says "no owner"; pass null to remove the owner');
    this.#owners.set(ss58, toSs58(owner));
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

function refuse(error: string): never {
  throw new ExtrinsicFailedError('dispatch_error', `subtensorModule.${error}`);
}

function randomHash(): string {
  return `0x${randomBytes(32).toString('hex')}`;
}

function blockHashOf(block: number): string {
  return `0x${block.toString(16).padStart(64, '0')}`;
}

function hexBytes(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex.replace(/^0x/, ''), 'hex'));
}
