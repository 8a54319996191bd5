import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mnemonicGenerate } from '@polkadot/util-crypto';
import { keypairFromUri } from '@rcs/auth';
import { chainConfigFromEnv, closeChainAdapters, createChainAdapters, type ChainAdapters } from '@rcs/chain';
import { buildClaimEpoch, type ClaimEpochTree, type ClaimPackage } from '@rcs/merkle';
import { createTestRedis, freePort, type TestRedis } from '@rcs/testing';
import { EXIT } from '../src/errors';
import { rcs } from './support/run-cli';

/**
 * `rcs payout` against the dev claim contract in Redis (the local stack's chain). The test publishes the epoch as
 * the pool does, and a local HTTP server answers the pool's proof routes from that epoch's tree: building a real
 * pool epoch needs a whole pool-mining round, which `tools/round/pool-round-stack.int-spec.ts` covers.
 */
describe('rcs payout on the dev claim contract', () => {
  let redis: TestRedis;
  let adapters: ChainAdapters;
  let server: Server;
  let poolUrl = '';
  let epoch: ClaimEpochTree;
  /** What the stand-in pool answers: the true package, or a forged one (a pool that lies about the amount). */
  let forge = false;
  let minerUri = '';
  let miner = '';
  let recipient = '';
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    redis = await createTestRedis();
    const chainEnv = { CHAIN: 'dev', NETUID: '1', REDIS_URL: redis.url, REDIS_KEY_PREFIX: redis.prefix };
    adapters = await createChainAdapters(chainConfigFromEnv(chainEnv));
    minerUri = mnemonicGenerate();
    miner = (await keypairFromUri(minerUri)).address;
    recipient = (await keypairFromUri(mnemonicGenerate())).address;
    const other = (await keypairFromUri('//Charlie')).address;
    epoch = buildClaimEpoch(3, [
      { hotkey: miner, recipientColdkey: recipient, amount: 1_250_000n },
      { hotkey: other, recipientColdkey: other, amount: 40n },
    ]);
    await adapters.claimContract.publishEpoch({ epoch: 3, root: epoch.root, numOfLeaves: epoch.entries.length, totalRao: epoch.totalAmount, uri: 'http://pool/claims/epoch/3/allocation' }, await keypairFromUri('//Alice'));
    server = createServer((req, res) => {
      const match = /^\/claims\/epoch(?:\/3)?\/proof\/(\w+)$/.exec(req.url ?? '');
      const entry = match && epoch.entries.find((e) => e.hotkey === match[1]);
      if (!entry) return res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ detail: { error: 'hotkey_not_in_epoch', message: 'no leaf' } }));
      const pkg: ClaimPackage = epoch.packageAt(entry.index);
      const answer = forge ? { ...pkg, amount: '9999999', amount_units: '9999999', leaf_hash: undefined } : pkg;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    poolUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    env = { HOME: '/nonexistent-home', RCS_POOL_URL: poolUrl, RCS_KEY_URI: minerUri, ...chainEnv };
  }, 60_000);

  afterAll(async () => {
    await new Promise<void>((resolve) => server?.close(() => resolve()));
    if (adapters) await closeChainAdapters(adapters);
    await redis?.cleanup();
  });

  it('verifies the package against the contract, claims it once, and refuses the second claim', async () => {
    const verified = await rcs(['payout', 'verify'], env);
    expect(verified).toMatchObject({ code: EXIT.ok, stdout: expect.stringContaining(`amount 1250000 to ${recipient}; the proof leads to the contract's root ${epoch.root}`) });

    const claimed = await rcs(['payout', 'claim'], env);
    expect(claimed).toMatchObject({ code: EXIT.ok, stdout: expect.stringMatching(new RegExp(`paid:\\s+1250000 rao\\nto:\\s+${recipient}`)) });
    expect(await adapters.claimContract.claimedCumulativeRao(miner)).toBe(1_250_000n);

    const again = await rcs(['payout', 'claim', '--json'], env);
    expect(again).toMatchObject({ code: EXIT.refused, stdout: '', stderr: expect.stringContaining(`nothing_to_claim: ${miner} has claimed 1250000 rao of its cumulative 1250000`) });
    expect(await adapters.claimContract.claimedCumulativeRao(miner)).toBe(1_250_000n);

    const status = await rcs(['payout', 'status'], env);
    expect(status).toMatchObject({ code: EXIT.ok });
    expect(status.stdout).toMatch(/cumulative:\s+1250000 rao\nclaimed:\s+1250000 rao\nclaimable:\s+0 rao/);
  });

  it('refuses a package the pool forged: the root and leaf count come from the contract', async () => {
    forge = true;
    try {
      const forged = await rcs(['payout', 'verify', miner], env);
      expect(forged).toMatchObject({ code: EXIT.refused, stderr: expect.stringContaining('does not verify against the contract') });
      expect(await rcs(['payout', 'claim'], env)).toMatchObject({ code: EXIT.refused });
    } finally {
      forge = false;
    }
  });

  it('exit 1 for a hotkey the pool has no leaf for, exit 3 when the chain does not answer', async () => {
    const stranger = (await keypairFromUri('//Dave')).address;
    expect(await rcs(['payout', 'status', stranger], env)).toMatchObject({ code: EXIT.refused, stderr: expect.stringContaining('hotkey_not_in_epoch') });
    const deadChain = await rcs(['payout', 'claim'], { ...env, REDIS_URL: `redis://127.0.0.1:${await freePort()}` });
    expect(deadChain).toMatchObject({ code: EXIT.unreachable, stderr: expect.stringContaining('claim contract') });
  }, 30_000);
});
