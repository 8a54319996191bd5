import type { KeyringPair } from '@polkadot/keyring/types';
import type { SubtensorPort, TimelockedCommit } from '@rcs/chain';

/**
 * Who this setter is on chain: the validator key pair it signs with, the chain and subnet it sets
 * weights on, and whether it only rehearses (dry run). One provider for the pass, the reveal watch and
 * the status, so none of them threads the key pair and the netuid through on its own.
 */
export class SetterIdentity {
  constructor(
    readonly chain: SubtensorPort,
    readonly keypair: KeyringPair,
    readonly netuid: number,
    /** A pass computes the vector and records it, and submits nothing. */
    readonly dryRun: boolean,
  ) {}

  /** The validator hotkey (SS58). */
  get hotkey(): string {
    return this.keypair.address;
  }

  /** The timelocked commits the chain holds for this hotkey on `netuid` (this setter's subnet unless a stored commit names its own). */
  heldCommits(netuid = this.netuid): Promise<TimelockedCommit[]> {
    return this.chain.timelockedCommits(netuid, this.hotkey);
  }
}
