/**
 * What the services read from the Subtensor chain. Every method rejects with
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
  close(): Promise<void>;
}
