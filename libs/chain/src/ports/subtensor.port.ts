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
  close(): Promise<void>;
}
