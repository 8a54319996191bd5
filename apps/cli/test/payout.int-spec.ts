import { mnemonicGenerate } from '@polkadot/util-crypto';
import { keypairFromUri } from '@rcs/auth';
import { chainConfigFromEnv, closeChainAdapters, createChainAdapters, type ChainAdapters } from '@rcs/chain';
import { verifyClaimPackage, type ClaimPackage } from '@rcs/merkle';
import { FakeCoordinator, freePort, snapshotOf, until } from '@rcs/testing';
import { EXIT } from '../src/errors';
import { rcs } from './support/run-cli';
import { startPoolProcess, type RunningPool } from './support/pool';

/**
 * `rcs recipient set` and `rcs payout` against the pool's real process on the dev chain: the pool rolls its epoch over
 * from the coordinator's reward snapshot and publishes it on the dev claim contract (in this file's Redis), and the CLI
 * reads the package from the pool and the root from the contract. The coordinator side is a snapshot server: the pool
 * reads nothing else from it.
 */
describe('rcs payout against a real pool and the dev claim contract', () => {
  const coordinator = new FakeCoordinator();
  let pool: RunningPool;
  let adapters: ChainAdapters;
  let minerUri = '';
  let miner = '';
  let recipient = '';
  let env: NodeJS.ProcessEnv;
  let pkg: ClaimPackage;
  let recipientSet: Awaited<ReturnType<typeof rcs>>;
  let published: { root: string; numOfLeaves: number };

  beforeAll(async () => {
    await coordinator.start();
    minerUri = mnemonicGenerate();
    miner = (await keypairFromUri(minerUri)).address;
    recipient = (await keypairFromUri(mnemonicGenerate())).address;
    const other = (await keypairFromUri('//Charlie')).address;
    pool = await startPoolProcess({ coordinatorUrl: coordinator.url, budgetRao: 1_250_000n });
    env = { HOME: '/nonexistent-home', RCS_POOL_URL: pool.url, RCS_KEY_URI: minerUri, ...pool.chainEnv };
    adapters = await createChainAdapters(chainConfigFromEnv(pool.chainEnv));
    // The pool's epoch check finds no snapshot (the coordinator answers 503) until the recipient is set; then it rolls
    // the window that had ended when it started over into epoch 1 and publishes it on the contract.
    recipientSet = await rcs(['recipient', 'set', recipient], env);
    // A second leaf (a miner without a recipient gets none), so that the proof is not empty.
    expect(await rcs(['recipient', 'set', other], { ...env, RCS_KEY_URI: '//Charlie' })).toMatchObject({ code: EXIT.ok });
    coordinator.snapshot = snapshotOf([
      [miner, 3],
      [other, 1],
    ]);
    const info = await until('the pool published epoch 1 on the contract', () => adapters.claimContract.epochInfo(1), (epoch) => epoch !== null, 60_000);
    published = { root: info?.root ?? '', numOfLeaves: info?.numOfLeaves ?? 0 };
  }, 150_000);

  afterAll(async () => {
    if (adapters) await closeChainAdapters(adapters);
    await pool?.stop();
    await coordinator.close();
  });

  it('sets the recipient, then verifies the published package against the contract, claims it once and refuses the second claim', async () => {
    expect(recipientSet).toMatchObject({ code: EXIT.ok, stdout: `recipient of ${miner} is now ${recipient}\n` });
    const verified = await rcs(['payout', 'verify', '--json'], env);
    expect(verified).toMatchObject({ code: EXIT.ok });
    pkg = JSON.parse(verified.stdout) as ClaimPackage;
    expect(pkg).toMatchObject({ epoch: 1, hotkey: miner, recipient_coldkey: recipient, root: published.root, leaf_count: 2 });
    expect(published.numOfLeaves).toBe(2);
    expect(pkg.proof).toHaveLength(1);
    expect(BigInt(pkg.amount)).toBeGreaterThan(0n);
    const human = await rcs(['payout', 'verify'], env);
    expect(human.stdout).toBe(`ok: epoch 1, leaf ${pkg.index} of 2, amount ${pkg.amount} to ${recipient}; the proof leads to the contract's root ${published.root}\n`);

    const before = await rcs(['payout', 'status'], env);
    expect(before).toMatchObject({ code: EXIT.ok });
    expect(before.stdout).toMatch(new RegExp(`cumulative:\\s+${pkg.amount} rao\\nclaimed:\\s+0 rao\\nclaimable:\\s+${pkg.amount} rao`));

    const claimed = await rcs(['payout', 'claim'], env);
    expect(claimed).toMatchObject({ code: EXIT.ok, stdout: expect.stringMatching(new RegExp(`paid:\\s+${pkg.amount} rao\\nto:\\s+${recipient}\\nepoch:\\s+1`)) });
    expect(await adapters.claimContract.claimedCumulativeRao(miner)).toBe(BigInt(pkg.amount));

    const again = await rcs(['payout', 'claim', '--json'], env);
    expect(again).toMatchObject({ code: EXIT.refused, stdout: '', stderr: expect.stringContaining(`nothing_to_claim: ${miner} has claimed ${pkg.amount} rao of its cumulative ${pkg.amount}`) });
    expect(await adapters.claimContract.claimedCumulativeRao(miner)).toBe(BigInt(pkg.amount));

    const after = await rcs(['payout', 'status'], env);
    expect(after).toMatchObject({ code: EXIT.ok });
    expect(after.stdout).toMatch(new RegExp(`cumulative:\\s+${pkg.amount} rao\\nclaimed:\\s+${pkg.amount} rao\\nclaimable:\\s+0 rao`));

    // The check `payout verify` makes: a package whose amount a pool changed leads to another root than the contract's.
    const forged = { ...pkg, amount: (BigInt(pkg.amount) + 1n).toString(), amount_units: undefined, leaf_hash: undefined };
    expect(verifyClaimPackage(forged, { root: published.root, leafCount: published.numOfLeaves })).toMatchObject({ ok: false });
  }, 120_000);

  it('exit 1 for a hotkey the pool has no leaf for, exit 3 when the chain does not answer', async () => {
    const stranger = (await keypairFromUri('//Dave')).address;
    expect(await rcs(['payout', 'status', stranger], env)).toMatchObject({ code: EXIT.refused, stderr: expect.stringContaining('hotkey_not_in_epoch') });
    const deadChain = await rcs(['payout', 'claim'], { ...env, REDIS_URL: `redis://127.0.0.1:${await freePort()}` });
    expect(deadChain).toMatchObject({ code: EXIT.unreachable, stderr: expect.stringContaining('claim contract') });
  }, 60_000);

  it('fetches the newest package again when the one it claims is superseded meanwhile, a bounded number of times', async () => {
    // A newer epoch on the contract that the pool does not serve (as when epochs are published faster than a claim
    // completes): every package the pool answers is superseded, so `claim` tries the newest one again, then refuses.
    const publisher = await keypairFromUri('//Alice');
    await adapters.claimContract.publishEpoch({ epoch: 2, root: `0x${'11'.repeat(32)}`, numOfLeaves: 1, totalRao: 1n, uri: 'http://127.0.0.1/epoch/2' }, publisher);
    const outcome = await rcs(['payout', 'claim'], { ...env, RCS_KEY_URI: '//Charlie' });
    expect(outcome).toMatchObject({ code: EXIT.refused, stderr: expect.stringContaining('epoch_not_claimable: epoch 1 is superseded by epoch 2') });
    expect(outcome.stderr.match(/epoch 1 was superseded while claiming; claiming with the newest package/g)).toHaveLength(2);
    expect(await adapters.claimContract.claimedCumulativeRao((await keypairFromUri('//Charlie')).address)).toBe(0n);
  }, 60_000);
});
