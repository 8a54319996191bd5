import { keypairFromUri } from '@rcs/auth';
import { DevChain, parseDevChainSeed } from '@rcs/chain';
import { STACK_NETUID, STACK_POOL_MINERS, stackDevChainSeed, stackPoolMiners } from './pool-miners';

describe("the local stack's DEV_CHAIN_SEED", () => {
  it('is a valid seed: the validator at uid 0, the pool miners staked without a uid', async () => {
    const validator = (await keypairFromUri('//Alice')).address;
    const seed = parseDevChainSeed(await stackDevChainSeed(validator));
    const { signers } = await stackPoolMiners();

    expect(seed.subnets.get(Number(STACK_NETUID))).toEqual([
      { hotkey: validator, stake: 1_000_000_000n, uid: 0, owner: null },
      ...signers.map((signer) => expect.objectContaining({ hotkey: signer.hotkey, stake: 1_000_000_000n, uid: null })),
    ]);
    expect(parseDevChainSeed(await stackDevChainSeed(null)).subnets.get(Number(STACK_NETUID))).toHaveLength(STACK_POOL_MINERS.length);
  });

  it('gives the pool miners owners: two share one, every other miner has its own', async () => {
    const chain = new DevChain({ seed: parseDevChainSeed(await stackDevChainSeed(null)) });
    const { signers, owners } = await stackPoolMiners();
    const onChain = await Promise.all(signers.map((signer) => chain.ownerOf(signer.hotkey)));

    expect(onChain).toEqual(owners);
    expect(owners[0]).toBe((await keypairFromUri('//Bob')).address);
    expect(owners[1]).toBe(owners[0]);
    expect(new Set(owners).size).toBe(owners.length - 1);
    // Consensus needs three evaluators of owners other than the author's.
    expect(new Set(owners).size).toBeGreaterThanOrEqual(4);
  });
});
