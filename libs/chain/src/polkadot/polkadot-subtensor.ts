import { accountIdOf, toSs58 } from '../address';
import type { SubtensorPort } from '../ports/subtensor.port';
import type { PolkadotConnection } from './polkadot-connection';
import { storage } from './storage';

/** `SubtensorPort` over a Subtensor node, keys and decoding taken from the node's own runtime metadata. */
export class PolkadotSubtensor implements SubtensorPort {
  constructor(private readonly connection: PolkadotConnection) {}

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

  close(): Promise<void> {
    return this.connection.close();
  }
}
