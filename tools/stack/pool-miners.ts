import { BtAuthSigner, keypairFromUri } from '@rcs/auth';

/** The subnet of the local stack (its `NETUID`). */
export const STACK_NETUID = '1';

/** What pool mining asks of a miner's stake (`POOL_MIN_STAKE_RAO`), so the stack's miners pass the gate if it is turned on. */
const STACK_MINER_STAKE_RAO = '1000000000';

/**
 * The local stack's pool miners, dev keys derived from their owners' dev keys. `npm start` records each
 * owner on the dev chain (`DEV_CHAIN_SEED`), so pool mining's grouping by owner coldkey (DECISIONS §11)
 * has something to group: both //Bob miners are one owner's, the others each their own. Four owners among
 * five miners leave any miner's evolution three evaluators of other owners, so consensus stays reachable.
 */
export const STACK_POOL_MINERS: readonly { uri: string; ownerUri: string }[] = [
  { uri: '//Bob//pool-miner-1', ownerUri: '//Bob' },
  { uri: '//Bob//pool-miner-2', ownerUri: '//Bob' },
  { uri: '//Charlie//pool-miner', ownerUri: '//Charlie' },
  { uri: '//Dave//pool-miner', ownerUri: '//Dave' },
  { uri: '//Eve//pool-miner', ownerUri: '//Eve' },
];

/** The stack's pool miners as signers, with their owners' coldkeys (SS58), in `STACK_POOL_MINERS` order. */
export async function stackPoolMiners(): Promise<{ signers: BtAuthSigner[]; owners: string[] }> {
  const pairs = await Promise.all(STACK_POOL_MINERS.map(async ({ uri, ownerUri }) => ({ hotkey: await keypairFromUri(uri), owner: await keypairFromUri(ownerUri) })));
  return { signers: pairs.map(({ hotkey }) => new BtAuthSigner(hotkey)), owners: pairs.map(({ owner }) => owner.address) };
}

/**
 * The stack's `DEV_CHAIN_SEED`: the local validator at uid 0 (the weight setter sets weights from it), and
 * the pool miners with stake, no uid, and their owners.
 */
export async function stackDevChainSeed(validatorHotkey: string | null): Promise<{ subnets: Record<string, { hotkey: string; stake: string; uid?: number; owner?: string }[]> }> {
  const { signers, owners } = await stackPoolMiners();
  const miners = signers.map((signer, i) => ({ hotkey: signer.hotkey, stake: STACK_MINER_STAKE_RAO, owner: owners[i] }));
  return { subnets: { [STACK_NETUID]: [...(validatorHotkey ? [{ hotkey: validatorHotkey, stake: '1000000000', uid: 0 }] : []), ...miners] } };
}
