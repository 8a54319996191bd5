import type { KeyringPair } from '@polkadot/keyring/types';

/** One `set_weights` call: uids ascending, u16 values, the policy's version key. */
export interface SetWeightsRequest {
  netuid: number;
  uids: number[];
  values: number[];
  versionKey: number;
}

/** Where a weight-setting extrinsic landed. */
export interface WeightsInclusion {
  /** Hash of the extrinsic (0x hex). */
  txHash: string;
  /** Block the extrinsic was included in. */
  block: number;
  blockHash: string;
}

/** One `commit_timelocked_weights` call (DECISIONS §12). */
export interface CommitTimelockedWeightsRequest {
  netuid: number;
  /** The serialised `tle` ciphertext of the SCALE `WeightsTlockPayload` (≤ 5000 bytes). */
  commit: Uint8Array;
  revealRound: bigint;
  /** `CommitRevealWeightsVersion`, read from the chain. */
  commitRevealVersion: number;
}

/**
 * What the chain checks a weight vector against, and how it schedules commits (read together, in one
 * round trip where the adapter can). Index = uid where a list.
 */
export interface WeightsRules {
  tempo: number;
  /** `WeightsVersionKey(netuid)`: the least `version_key` the chain accepts. */
  weightsVersionKey: bigint;
  minAllowedWeights: number;
  /** u16; 65535 means no limit. */
  maxWeightsLimit: number;
  validatorPermit: boolean[];
  /** `SubnetworkN(netuid)`: how many uids the subnet has. */
  subnetSize: number;
  weightsSetRateLimit: number;
  commitRevealEnabled: boolean;
  /** `CommitRevealWeightsVersion` (global). */
  commitRevealVersion: number;
  revealPeriodEpochs: number;
  /** Milliseconds per block (twice `Timestamp::MinimumPeriod`; Subtensor's 12 s). */
  blockTimeMs: number;
  /**
   * How the runtime numbers epochs: `legacy` (no `SubnetEpochIndex` storage, epoch = ⌊(block + netuid + 1) / (tempo + 1)⌋)
   * or `stateful` (the runtime keeps `SubnetEpochIndex`; the state it needs is in `epochState`).
   */
  epochSchedule: 'legacy' | 'stateful';
  /** The stateful schedule's state (`LastEpochBlock`, `PendingEpochAt`, `SubnetEpochIndex`, `BlocksSinceLastStep`); null on legacy runtimes. */
  epochState: { lastEpochBlock: number; pendingEpochAt: number; subnetEpochIndex: number; blocksSinceLastStep: number } | null;
}

/** `Drand.BeaconConfig`: the beacon whose pulses open timelocked commits. */
export interface DrandBeaconConfig {
  /** G2 public key, 96 bytes compressed. */
  publicKey: Uint8Array;
  /** Seconds. */
  genesisTime: number;
  period: number;
}

/** One entry of `TimelockedWeightCommits(netuid, epoch)` that the chain has not revealed (or dropped) yet. */
export interface TimelockedCommit {
  /** The epoch it was committed in. */
  epoch: number;
  /** SS58 (prefix 42). */
  hotkey: string;
  commitBlock: number;
  commit: Uint8Array;
  revealRound: bigint;
}

/**
 * What the services read from (and write to) the Subtensor chain. Every method rejects with
 * `ChainUnavailableError` when the chain cannot answer, so callers can fail closed.
 */
export interface SubtensorPort {
  /** Number of the best block. */
  latestBlock(): Promise<number>;
  /** `SubtensorModule::TotalHotkeyAlpha(hotkey, netuid)` in rao; 0n when the hotkey holds none. */
  alphaStake(hotkey: string, netuid: number): Promise<bigint>;
  /** `SubtensorModule::Uids(netuid, hotkey)`; null when the hotkey is not registered on the subnet. */
  uidOf(hotkey: string, netuid: number): Promise<number | null>;
  /** SubtensorModule::Owner(hotkey): the coldkey that owns the hotkey, SS58 (prefix 42); null when the chain records none. */
  ownerOf(hotkey: string): Promise<string | null>;
  /** Hotkeys of the subnet as SS58 (prefix 42), index = uid (`SubtensorModule::Keys(netuid, uid)`). */
  metagraphHotkeys(netuid: number): Promise<string[]>;
  /** `SubtensorModule::LastUpdate(netuid)`: per uid, the block its weights were last set (index = uid). */
  lastUpdate(netuid: number): Promise<number[]>;
  /** `SubtensorModule::WeightsSetRateLimit(netuid)` in blocks. */
  weightsSetRateLimit(netuid: number): Promise<number>;
  /** `SubtensorModule::CommitRevealWeightsEnabled(netuid)`: when on, the chain refuses `set_weights`. */
  commitRevealWeightsEnabled(netuid: number): Promise<boolean>;
  /**
   * `SubtensorModule::set_weights(netuid, dests, weights, version_key)` signed by `signer`; resolves
   * once the extrinsic is in a block and succeeded. A dispatch error, an invalid or dropped
   * transaction, or no inclusion within the inclusion timeout rejects with `ExtrinsicFailedError`.
   */
  setWeights(signer: KeyringPair, request: SetWeightsRequest): Promise<WeightsInclusion>;
  /** The subnet's weight rules and commit-reveal schedule (DECISIONS §12 "Chain rules first"). */
  weightsRules(netuid: number): Promise<WeightsRules>;
  /** `Drand.BeaconConfig`. */
  drandBeacon(): Promise<DrandBeaconConfig>;
  /** The hotkey's commits still held in `TimelockedWeightCommits(netuid, *)`, oldest epoch first. */
  timelockedCommits(netuid: number, hotkey: string): Promise<TimelockedCommit[]>;
  /** `SubtensorModule::Weights(netuid, uid)`: the weights the uid has on chain, as `[uid, value]` pairs. */
  uidWeights(netuid: number, uid: number): Promise<[number, number][]>;
  /**
   * `SubtensorModule::commit_timelocked_weights(netuid, commit, reveal_round, commit_reveal_version)`
   * signed by `signer`, watched to inclusion like `setWeights`.
   */
  commitTimelockedWeights(signer: KeyringPair, request: CommitTimelockedWeightsRequest): Promise<WeightsInclusion>;
  close(): Promise<void>;
}
