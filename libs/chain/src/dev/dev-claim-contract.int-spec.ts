import { Keyring } from '@polkadot/keyring';
import type { KeyringPair } from '@polkadot/keyring/types';
import { cryptoWaitReady, encodeAddress } from '@polkadot/util-crypto';
import { buildClaimEpoch, type ClaimEntry, type ClaimPackage } from '@rcs/merkle';
import { createTestRedis, type TestRedis } from '@rcs/testing';
import { Redis } from 'ioredis';
import { ClaimContractError, type ClaimReceipt, type HexHash } from '../ports/claim-contract.port';
import { closeChainAdapters, createChainAdapters } from '../chain-adapters';
import { chainConfigFromEnv } from '../config';
import { claimOf, refusal } from '../testing/claim-contract-calls';
import { DevChain } from './dev-chain';
import { DevClaimContract } from './dev-claim-contract';

const account = (n: number): string => encodeAddress(new Uint8Array(32).fill(n), 42);
const EVIDENCE = `0x${'ee'.repeat(32)}` as HexHash;

describe('DevClaimContract (Redis-backed, shared by every process of one stack)', () => {
  let testRedis: TestRedis;
  let publisher: KeyringPair;
  let miner: KeyringPair;
  const clients: Redis[] = [];
  const clock = { ms: 0 };
  const now = (): number => clock.ms;

  /** One "process": its own dev chain and its own Redis connection. */
  function contractProcess(prefix = testRedis.prefix, challengeBlocks = 0, genesisMs = 0): DevClaimContract {
    const redis = new Redis(testRedis.url);
    clients.push(redis);
    return new DevClaimContract(new DevChain({ now, genesisMs, blockTimeMs: 1_000 }), redis, prefix, { challengeBlocks });
  }

  function epochOf(epoch: number, entries: ClaimEntry[]) {
    const tree = buildClaimEpoch(epoch, entries);
    return { tree, args: { epoch, root: tree.root, numOfLeaves: tree.tree.size, totalRao: tree.totalAmount, uri: `http://pool/claims/epoch/${epoch}/allocation` } };
  }
  const packageFor = (tree: ReturnType<typeof buildClaimEpoch>, hotkey: string): ClaimPackage =>
    tree.packageAt(tree.entries.findIndex((entry) => entry.hotkey === hotkey));

  beforeAll(async () => {
    await cryptoWaitReady();
    const keyring = new Keyring({ type: 'sr25519' });
    publisher = keyring.addFromUri('//Publisher');
    miner = keyring.addFromUri('//Miner');
    testRedis = await createTestRedis();
  });

  beforeEach(() => {
    clock.ms = 100_000;
  });

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.quit()));
    await testRedis.cleanup();
  });

  it('reports a configured, reachable contract at the dev clock block', async () => {
    const contract = contractProcess(`${testRedis.prefix}:status`);
    expect(await contract.status()).toEqual({
      configured: true,
      ws_url: 'dev://local',
      contract: 'dev',
      metadata_path: 'dev://builtin',
      metadata_exists: true,
      metadata_messages: ['publish_epoch', 'claim_single', 'challenge_epoch'],
      required_messages_present: true,
      chain_reachable: true,
      latest_block: 100,
      contract_info_present: true,
      contract_account_free: 0,
      contract_account_reserved: 0,
      error: null,
    });
  });

  it('reports an unreachable dev chain state in the status instead of rejecting', async () => {
    const redis = new Redis(testRedis.url, { lazyConnect: true });
    await redis.connect();
    await redis.quit();
    const contract = new DevClaimContract(new DevChain({ now }), redis, `${testRedis.prefix}:closed`);
    expect(await contract.status()).toMatchObject({ chain_reachable: false, latest_block: null, error: expect.stringMatching(/dev chain state unreachable/) });
  });

  it('publishes once per epoch, only newer epochs, and every process reads the same epochs', async () => {
    const prefix = `${testRedis.prefix}:publish`;
    const pool = contractProcess(prefix, 5);
    const coordinator = contractProcess(prefix, 5);
    expect(await coordinator.latestPublishedEpoch()).toBeNull();
    expect((await coordinator.claimState()).claimReady).toBe(false);

    const { tree, args } = epochOf(7, [{ hotkey: account(1), recipientColdkey: account(11), amount: 500n }]);
    expect(await pool.publishEpoch(args, publisher)).toMatchObject({ block: 100, txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/) });

    expect(await coordinator.latestPublishedEpoch()).toBe(7);
    expect(await coordinator.epochInfo(7)).toEqual({
      root: tree.root,
      numOfLeaves: 1,
      totalRao: 500n,
      spentRao: 0n,
      disputed: false,
      claimsOpenAt: 105,
      bondRao: 0n,
    });
    expect(await coordinator.epochInfo(6)).toBeNull();
    expect(await coordinator.claimState()).toMatchObject({ latestEpoch: 7, currentBlock: 100, vetoActive: false, claimReady: false });
    clock.ms = 105_000;
    expect((await coordinator.claimState()).claimReady).toBe(true);

    expect(await refusal(coordinator.publishEpoch(args, publisher))).toBe('epoch_exists');
    expect(await refusal(pool.publishEpoch({ ...args, epoch: 6 }, publisher))).toBe('epoch_not_newer');
    expect((await pool.epochInfo(7))?.root).toBe(tree.root);
    // Another stack (another prefix) has its own contract.
    expect(await contractProcess(`${testRedis.prefix}:other-stack`).latestPublishedEpoch()).toBeNull();
  });

  it('pays amount − claimed once, only for the latest epoch, and a later epoch pays the difference to the current recipient', async () => {
    const prefix = `${testRedis.prefix}:pay`;
    const pool = contractProcess(prefix);
    const demo = contractProcess(prefix);
    const hotkey = account(1);
    const first = epochOf(1, [
      { hotkey, recipientColdkey: account(11), amount: 300n },
      { hotkey: account(2), recipientColdkey: account(12), amount: 700n },
    ]);
    await pool.publishEpoch(first.args, publisher);

    expect(await demo.claimSingle(claimOf(packageFor(first.tree, hotkey)), true, miner)).toMatchObject({ paidRao: 300n, block: 100 });
    expect(await refusal(demo.claimSingle(claimOf(packageFor(first.tree, hotkey)), true, miner))).toBe('nothing_to_claim');
    expect(await pool.claimedCumulativeRao(hotkey)).toBe(300n);
    expect(await pool.claimedCumulativeRao(encodeAddress(new Uint8Array(32).fill(1), 0))).toBe(300n);
    expect((await pool.epochInfo(1))?.spentRao).toBe(300n);

    // Epoch 2: the hotkey earned 200 more and moved its payout to another coldkey.
    const second = epochOf(2, [
      { hotkey, recipientColdkey: account(21), amount: 500n },
      { hotkey: account(2), recipientColdkey: account(12), amount: 700n },
    ]);
    await pool.publishEpoch(second.args, publisher);
    expect(await refusal(demo.claimSingle(claimOf(packageFor(first.tree, account(2))), false, miner))).toBe('epoch_not_claimable');
    expect(await demo.claimSingle(claimOf(packageFor(second.tree, hotkey)), true, miner)).toMatchObject({ paidRao: 200n });
    expect(await demo.claimSingle(claimOf(packageFor(second.tree, account(2))), false, miner)).toMatchObject({ paidRao: 700n });
    expect(await refusal(demo.claimSingle({ ...claimOf(packageFor(second.tree, hotkey)), epoch: 3 }, true, miner))).toBe('unknown_epoch');

    const ledger = await pool.claims();
    expect(ledger.map(({ epoch, hotkey: who, recipientColdkey, paidRao, transfer }) => ({ epoch, who, recipientColdkey, paidRao, transfer }))).toEqual([
      { epoch: 1, who: hotkey, recipientColdkey: account(11), paidRao: '300', transfer: true },
      { epoch: 2, who: hotkey, recipientColdkey: account(21), paidRao: '200', transfer: true },
      { epoch: 2, who: account(2), recipientColdkey: account(12), paidRao: '700', transfer: false },
    ]);
    expect((await pool.epochInfo(2))?.spentRao).toBe(900n);
  });

  it('refuses a tampered claim (amount, recipient, index, proof) and one before claims_open_at', async () => {
    const prefix = `${testRedis.prefix}:tamper`;
    const contract = contractProcess(prefix, 10);
    const entries = Array.from({ length: 5 }, (_, i) => ({ hotkey: account(i + 1), recipientColdkey: account(i + 31), amount: BigInt(100 * (i + 1)) }));
    const { tree, args } = epochOf(4, entries);
    await contract.publishEpoch(args, publisher);
    const claim = claimOf(tree.packageAt(2));
    const other = claimOf(tree.packageAt(3));

    expect(await refusal(contract.claimSingle(claim, true, miner))).toBe('claims_not_open');
    clock.ms = 110_000;
    expect(await refusal(contract.claimSingle({ ...claim, amount: claim.amount + 1n }, true, miner))).toBe('invalid_proof');
    expect(await refusal(contract.claimSingle({ ...claim, recipientColdkey: account(99) }, true, miner))).toBe('invalid_proof');
    expect(await refusal(contract.claimSingle({ ...claim, index: 3 }, true, miner))).toBe('invalid_proof');
    expect(await refusal(contract.claimSingle({ ...claim, proof: other.proof }, true, miner))).toBe('invalid_proof');
    expect(await refusal(contract.claimSingle({ ...claim, proof: claim.proof.slice(1) }, true, miner))).toBe('invalid_proof');
    expect(await contract.claims()).toEqual([]);
    expect((await contract.claimSingle(claim, true, miner)).paidRao).toBe(claim.amount);
  });

  it('locks claims while a challenge is active; dismissal reopens them, an upheld challenge keeps them locked and slashes the bond', async () => {
    const prefix = `${testRedis.prefix}:challenge`;
    const pool = contractProcess(prefix);
    const arbiter = contractProcess(prefix);
    const { tree, args } = epochOf(3, [{ hotkey: account(1), recipientColdkey: account(11), amount: 50n }, { hotkey: account(2), recipientColdkey: account(12), amount: 60n }]);
    await pool.publishEpoch(args, publisher);

    expect(await refusal(arbiter.challengeEpoch(4, EVIDENCE, miner))).toBe('unknown_epoch');
    expect(await refusal(arbiter.resolveChallenge(3, false, account(5), publisher))).toBe('not_disputed');
    await arbiter.challengeEpoch(3, EVIDENCE, miner);
    expect(await refusal(arbiter.challengeEpoch(3, EVIDENCE, miner))).toBe('already_disputed');
    expect(await pool.claimState()).toMatchObject({ latestEpoch: 3, vetoActive: true, claimReady: false });
    expect(await pool.challenge(3)).toEqual({ epoch: 3, evidenceHash: EVIDENCE, challenger: miner.address, challengedAtBlock: 100, status: 'active', beneficiary: null });
    expect(await refusal(pool.claimSingle(claimOf(packageFor(tree, account(1))), true, miner))).toBe('claims_locked');

    await arbiter.resolveChallenge(3, false, account(5), publisher);
    expect(await pool.claimState()).toMatchObject({ vetoActive: false, claimReady: true });
    expect((await pool.claimSingle(claimOf(packageFor(tree, account(1))), true, miner)).paidRao).toBe(50n);

    await arbiter.challengeEpoch(3, EVIDENCE, miner);
    await arbiter.resolveChallenge(3, true, account(5), publisher);
    expect(await pool.challenge(3)).toMatchObject({ status: 'upheld', beneficiary: account(5) });
    expect(await pool.epochInfo(3)).toMatchObject({ disputed: true, bondRao: 0n });
    expect(await refusal(pool.claimSingle(claimOf(packageFor(tree, account(2))), true, miner))).toBe('claims_locked');
    expect(await refusal(arbiter.resolveChallenge(3, false, account(5), publisher))).toBe('not_disputed');
  });

  it('processes started at different times count blocks from the block 0 of the first one', async () => {
    const prefix = `${testRedis.prefix}:genesis`;
    const early = contractProcess(prefix, 3, 0);
    expect(await early.currentBlock()).toBe(100);
    const late = contractProcess(prefix, 3, 60_000); // its own clock would say block 40
    expect(await late.currentBlock()).toBe(100);
    const { tree, args } = epochOf(1, [{ hotkey: account(1), recipientColdkey: account(11), amount: 9n }]);
    await late.publishEpoch(args, publisher);
    expect((await early.epochInfo(1))?.claimsOpenAt).toBe(103);
    clock.ms = 103_000;
    expect((await early.claimSingle(claimOf(tree.packageAt(0)), true, miner)).paidRao).toBe(9n);
    expect((await late.status()).latest_block).toBe(103);
  });

  it('createChainAdapters with CHAIN=dev gives every process of one REDIS_KEY_PREFIX the same contract', async () => {
    const env = { CHAIN: 'dev', NETUID: '1', REDIS_URL: testRedis.url, REDIS_KEY_PREFIX: `${testRedis.prefix}:stack` };
    const pool = await createChainAdapters(chainConfigFromEnv(env));
    const coordinator = await createChainAdapters(chainConfigFromEnv(env));
    const otherStack = await createChainAdapters(chainConfigFromEnv({ ...env, REDIS_KEY_PREFIX: `${testRedis.prefix}:other` }));
    try {
      const { args } = epochOf(5, [{ hotkey: account(1), recipientColdkey: account(11), amount: 1n }]);
      await pool.claimContract.publishEpoch(args, publisher);
      expect(await coordinator.claimContract.latestPublishedEpoch()).toBe(5);
      expect((await coordinator.claimContract.epochInfo(5))?.root).toBe(args.root);
      expect(await otherStack.claimContract.latestPublishedEpoch()).toBeNull();
    } finally {
      await Promise.all([pool, coordinator, otherStack].map((adapters) => closeChainAdapters(adapters)));
    }
    expect(pool.devRedis?.status).toBe('end');
  });

  it('concurrent claims of one hotkey from several processes pay once', async () => {
    const prefix = `${testRedis.prefix}:race`;
    const processes = [contractProcess(prefix), contractProcess(prefix), contractProcess(prefix)];
    const entries = Array.from({ length: 8 }, (_, i) => ({ hotkey: account(i + 1), recipientColdkey: account(i + 41), amount: 1_000n + BigInt(i) }));
    const { tree, args } = epochOf(9, entries);
    await processes[0].publishEpoch(args, publisher);
    const claim = claimOf(packageFor(tree, account(1)));
    const others = entries.slice(1).map((entry) => claimOf(packageFor(tree, entry.hotkey)));

    const settle = (work: Promise<ClaimReceipt>) =>
      work.then(
        (receipt) => ({ paid: receipt.paidRao }),
        (error: unknown) => {
          if (error instanceof ClaimContractError) return { refused: error.code };
          throw error;
        },
      );

    const results = await Promise.all([
      ...Array.from({ length: 30 }, (_, i) => settle(processes[i % 3].claimSingle(claim, true, miner))),
      ...others.map((other, i) => settle(processes[i % 3].claimSingle(other, true, miner))),
    ]);

    const same = results.slice(0, 30);
    expect(same.filter((result) => 'paid' in result)).toEqual([{ paid: 1_000n }]);
    expect(same.filter((result) => 'refused' in result)).toEqual(Array.from({ length: 29 }, () => ({ refused: 'nothing_to_claim' })));
    expect(results.slice(30)).toEqual(others.map((other) => ({ paid: other.amount })));
    expect(await processes[1].claimedCumulativeRao(account(1))).toBe(1_000n);
    expect((await processes[2].epochInfo(9))?.spentRao).toBe(tree.totalAmount);
    expect(await processes[0].claims()).toHaveLength(8);
  });
});
