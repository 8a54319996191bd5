import type { KeyringPair } from '@polkadot/keyring/types';
import { accountIdOf, toSs58 } from '../address';
import { ExtrinsicFailedError } from '../errors';
import type { SetWeightsRequest, SubtensorPort, WeightsInclusion } from '../ports/subtensor.port';
import type { PolkadotConnection } from './polkadot-connection';
import { storage } from './storage';
import { submitAndWatch } from './submit-extrinsic';

/** How long a submitted extrinsic may take to reach a block (Subtensor blocks are 12 s). */
export const DEFAULT_INCLUSION_TIMEOUT_MS = 120_000;

/** `SubtensorPort` over a Subtensor node, keys and decoding taken from the node's own runtime metadata. */
export class PolkadotSubtensor implements SubtensorPort {
  constructor(
    private readonly connection: PolkadotConnection,
    private readonly inclusionTimeoutMs = DEFAULT_INCLUSION_TIMEOUT_MS,
  ) {}

  latestBlock(): Promise<number> {
    return this.connection.run('chain_getHeader', async (api) => (await api.rpc.chain.getHeader()).number.toNumber());
  }

  async alphaStake(hotkey: string, netuid: number): Promise<bigint> {
    const accountId = accountIdOf(hotkey);
    return this.connection.run('SubtensorModule.TotalHotkeyAlpha', async (api) => {
      const stake = await storage(api, 'subtensorModule', 'totalHotkeyAlpha')(accountId, netuid);
      return BigInt(stake.toString());
    });
  }

  async uidOf(hotkey: string, netuid: number): Promise<number | null> {
    const accountId = accountIdOf(hotkey);
    return this.connection.run('SubtensorModule.Uids', async (api) => {
      const uid = (await storage(api, 'subtensorModule', 'uids')(netuid, accountId)).toJSON();
      return typeof uid === 'number' ? uid : null;
    });
  }

  metagraphHotkeys(netuid: number): Promise<string[]> {
    return this.connection.run('SubtensorModule.Keys', async (api) => {
      const count = Number((await storage(api, 'subtensorModule', 'subnetworkN')(netuid)).toString());
      if (count === 0) return [];
      const uids = Array.from({ length: count }, (_, uid) => [netuid, uid]);
      const accounts = await storage(api, 'subtensorModule', 'keys').multi(uids);
      return accounts.map((account) => toSs58(account.toU8a()));
    });
  }

  lastUpdate(netuid: number): Promise<number[]> {
    return this.connection.run('SubtensorModule.LastUpdate', async (api) => {
      const blocks = await storage(api, 'subtensorModule', 'lastUpdate')(netuid);
      return (blocks as unknown as { toString(): string }[]).map((block) => Number(block.toString()));
    });
  }

  weightsSetRateLimit(netuid: number): Promise<number> {
    return this.connection.run('SubtensorModule.WeightsSetRateLimit', async (api) => Number((await storage(api, 'subtensorModule', 'weightsSetRateLimit')(netuid)).toString()));
  }

  commitRevealWeightsEnabled(netuid: number): Promise<boolean> {
    return this.connection.run('SubtensorModule.CommitRevealWeightsEnabled', async (api) => (await storage(api, 'subtensorModule', 'commitRevealWeightsEnabled')(netuid)).toJSON() === true);
  }

  setWeights(signer: KeyringPair, request: SetWeightsRequest): Promise<WeightsInclusion> {
    return this.connection.run(
      'SubtensorModule.set_weights',
      async (api) => {
        const setWeights = api.tx['subtensorModule']?.['setWeights'];
        if (!setWeights) throw new ExtrinsicFailedError('invalid', "the chain's runtime has no SubtensorModule.set_weights call");
        const extrinsic = setWeights(request.netuid, request.uids, request.values, request.versionKey);
        return submitAndWatch(api, extrinsic, signer, this.inclusionTimeoutMs);
      },
      // The submission has its own deadline (a timeout there is a failed extrinsic, not an unreachable chain).
      { timeoutMs: this.inclusionTimeoutMs + 5_000, passThrough: (error) => error instanceof ExtrinsicFailedError },
    );
  }

  close(): Promise<void> {
    return this.connection.close();
  }
}
