import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mnemonicGenerate } from '@polkadot/util-crypto';
import { keypairFromUri } from '@rcs/auth';
import { chainConfigFromEnv, closeChainAdapters, createChainAdapters, type ChainAdapters } from '@rcs/chain';
import { buildClaimEpoch, type ClaimPackage } from '@rcs/merkle';
import { createTestRedis, type TestRedis } from '@rcs/testing';
import { EXIT } from '../src/errors';
import { rcs } from './support/run-cli';

/**
 * Issue 35 item 4: `rcs payout claim` checked a package's proof against the contract but not whose package it was,
 * and the contract pays any valid package with the caller paying the fee. A fake pool answers the victim's real,
 * published package for every hotkey; `rcs` must refuse it before signing, and claim its own when it is given.
 */
describe('rcs payout against a pool that answers someone else’s package', () => {
  let redis: TestRedis;
  let adapters: ChainAdapters;
  let chainEnv: Record<string, string>;
  let server: Server;
  let poolUrl = '';
  let served: ClaimPackage | null = null;
  let minerUri = '';
  let miner = '';
  let victim = '';
  let packages: Map<string, ClaimPackage>;

  beforeAll(async () => {
    redis = await createTestRedis();
    chainEnv = { CHAIN: 'dev', NETUID: '1', REDIS_URL: redis.url, REDIS_KEY_PREFIX: redis.prefix, DEV_CHAIN_BLOCK_TIME_MS: '1000', DEV_CLAIM_CHALLENGE_BLOCKS: '0' };
    adapters = await createChainAdapters(chainConfigFromEnv(chainEnv));
    minerUri = mnemonicGenerate();
    miner = (await keypairFromUri(minerUri)).address;
    victim = (await keypairFromUri(mnemonicGenerate())).address;
    const [minerRecipient, victimRecipient] = await Promise.all([mnemonicGenerate(), mnemonicGenerate()].map(async (uri) => (await keypairFromUri(uri)).address));
    const epoch = buildClaimEpoch(1, [
      { hotkey: miner, recipientColdkey: minerRecipient, amount: 300n },
      { hotkey: victim, recipientColdkey: victimRecipient, amount: 900n },
    ]);
    packages = new Map(epoch.entries.map((entry) => [entry.hotkey, epoch.packageAt(entry.index)]));
    await adapters.claimContract.publishEpoch(
      { epoch: 1, root: epoch.root, numOfLeaves: epoch.tree.size, totalRao: epoch.totalAmount, uri: 'http://127.0.0.1/epoch/1' },
      await keypairFromUri('//Alice'),
    );
    server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(served));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    poolUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    if (adapters) await closeChainAdapters(adapters);
    await redis?.cleanup();
  });

  const run = (args: string[]) => rcs(args, { HOME: '/nonexistent-home', RCS_POOL_URL: poolUrl, RCS_KEY_URI: minerUri, ...chainEnv });

  it("refuses to claim the victim's valid package for the signer, and nothing is paid", async () => {
    served = packages.get(victim) ?? null;
    const outcome = await run(['payout', 'claim']);
    expect(outcome).toMatchObject({ code: EXIT.refused, stdout: '' });
    expect(outcome.stderr).toBe(`rcs: wrong_package: the pool answered the package of "${victim}" for ${miner}; nothing was signed\n`);
    expect(await adapters.claimContract.claimedCumulativeRao(victim)).toBe(0n);
    expect(await adapters.claimContract.claimedCumulativeRao(miner)).toBe(0n);
  });

  it('refuses a package of another epoch than the one asked for', async () => {
    served = { ...(packages.get(miner) as ClaimPackage), epoch: 1 };
    const outcome = await run(['payout', 'claim', '--epoch', '2']);
    expect(outcome).toMatchObject({ code: EXIT.refused, stderr: 'rcs: wrong_package: the pool answered epoch 1 for epoch 2; nothing was signed\n' });
  });

  it('refuses in payout verify and status too, for the hotkey asked for', async () => {
    served = packages.get(victim) ?? null;
    expect(await run(['payout', 'verify', miner])).toMatchObject({ code: EXIT.refused, stderr: expect.stringContaining('wrong_package') });
    expect(await run(['payout', 'status', miner])).toMatchObject({ code: EXIT.refused, stderr: expect.stringContaining('wrong_package') });
  });

  it('claims the signer’s own package, whatever SS58 spelling the pool writes its hotkey in', async () => {
    const own = packages.get(miner) as ClaimPackage;
    served = { ...own, hotkey: (await keypairFromUri(minerUri, 2)).address };
    const outcome = await run(['payout', 'claim']);
    expect(outcome).toMatchObject({ code: EXIT.ok, stdout: expect.stringMatching(/paid:\s+300 rao/) });
    expect(await adapters.claimContract.claimedCumulativeRao(miner)).toBe(300n);
    expect(await adapters.claimContract.claimedCumulativeRao(victim)).toBe(0n);
  });
});
