import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keyring } from '@polkadot/keyring';
import type { KeyringPair } from '@polkadot/keyring/types';
import { cryptoWaitReady, encodeAddress } from '@polkadot/util-crypto';
import { buildClaimEpoch } from '@rcs/merkle';
import { createTestRedis, type TestRedis } from '@rcs/testing';
import { ChainUnavailableError } from '../errors';
import { ClaimContractError, type HexHash } from '../ports/claim-contract.port';
import { claimOf, refusal } from '../testing/claim-contract-calls';
import { inkMetadata } from '../testing/ink-metadata';
import { LocalClaimContract } from '../testing/local-claim-contract';
import { LocalRpcServer } from '../testing/local-rpc-server';
import { MERKLEPOOL_5A988BF_METADATA_PATH, MERKLEPOOL_METADATA_PATH } from '../testing/merklepool-metadata-files';
import { MerklepoolMetadataError } from './merklepool-metadata';
import { PolkadotClaimContract } from './polkadot-claim-contract';
import { PolkadotConnection } from './polkadot-connection';

const CONTRACT = encodeAddress(new Uint8Array(32).fill(0xc0), 42);
const account = (n: number): string => encodeAddress(new Uint8Array(32).fill(n), 42);
const EVIDENCE = `0x${'ab'.repeat(32)}` as HexHash;

async function rejection(work: Promise<unknown>): Promise<ClaimContractError> {
  const error = await work.then(
    () => null,
    (reason: unknown) => reason,
  );
  if (error instanceof ClaimContractError) return error;
  throw new TypeError(`expected a ClaimContractError, got ${String(error)}`);
}

/** The refusal's code and what the contract itself said. */
async function refused(work: Promise<unknown>): Promise<Pick<ClaimContractError, 'code' | 'refused'>> {
  const { code, refused: how } = await rejection(work);
  return { code, refused: how };
}

describe('PolkadotClaimContract messages through @polkadot/api-contract against a local node (real Subtensor metadata)', () => {
  let testRedis: TestRedis;
  let node: LocalRpcServer;
  let deployed: LocalClaimContract;
  let dir: string;
  let metadataPath: string;
  let publisher: KeyringPair;
  let miner: KeyringPair;
  const connections: PolkadotConnection[] = [];

  const adapter = (address: string | null = CONTRACT, path: string | null = metadataPath, txTimeoutMs?: number) => {
    const connection = new PolkadotConnection(node.url, 10_000);
    connections.push(connection);
    return new PolkadotClaimContract(connection, address, path, txTimeoutMs);
  };

  beforeAll(async () => {
    await cryptoWaitReady();
    const keyring = new Keyring({ type: 'sr25519', ss58Format: 42 });
    publisher = keyring.addFromUri('//Publisher');
    miner = keyring.addFromUri('//Miner');
    testRedis = await createTestRedis();
    node = await LocalRpcServer.start({ bestBlock: 100 });
    deployed = new LocalClaimContract(node, { address: CONTRACT, redis: testRedis.redis, keyPrefix: testRedis.prefix });
    dir = mkdtempSync(join(tmpdir(), 'rcs-claim-contract-'));
    metadataPath = MERKLEPOOL_METADATA_PATH;
  });

  afterAll(async () => {
    await Promise.all(connections.map((connection) => connection.close()));
    await node.close();
    await testRedis.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('publishes, claims, challenges and resolves through signed Contracts::call extrinsics, and reads it all back', async () => {
    const contract = adapter();
    expect(await contract.latestPublishedEpoch()).toBeNull();
    expect(await contract.claimState()).toEqual({ latestEpoch: null, currentBlock: 100, epoch: null, vetoActive: false, claimReady: false });

    const tree = buildClaimEpoch(7, [
      { hotkey: account(1), recipientColdkey: account(11), amount: 4_000_000_000n },
      { hotkey: account(2), recipientColdkey: account(12), amount: 6_000_000_000n },
      { hotkey: account(3), recipientColdkey: account(13), amount: 1n },
    ]);
    const uri = 'http://127.0.0.1:8434/claims/epoch/7/allocation';
    const receipt = await contract.publishEpoch({ epoch: 7, root: tree.root, numOfLeaves: 3, totalRao: tree.totalAmount, uri }, publisher);

    // The block's Contracts::ContractEmitted, decoded with the contract's metadata, confirms the publication.
    expect(receipt).toEqual({ block: 101, txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/), events: [{ name: 'EpochPublished', epoch: 7, root: tree.root, totalRao: tree.totalAmount, uri }] });
    // The node decoded the extrinsic's call data with the contract's metadata: the adapter encoded every argument.
    expect(deployed.included).toEqual([
      { block: 101, signer: publisher.address, message: 'publish_epoch', args: [7, tree.root, 3, Number(tree.totalAmount), uri], reverted: false },
    ]);
    expect(await contract.latestPublishedEpoch()).toBe(7);
    expect(await contract.epochInfo(7)).toEqual({ root: tree.root, numOfLeaves: 3, totalRao: 10_000_000_001n, spentRao: 0n, disputed: false, claimsOpenAt: 101, bondRao: 0n });
    // get_epoch_info answers Result<Epoch, ReadWriteErrorCode>: an unknown epoch is its Err, "not published".
    expect(await contract.epochInfo(8)).toBeNull();
    expect(await contract.claimState()).toMatchObject({ latestEpoch: 7, currentBlock: 101, vetoActive: false, claimReady: true });

    const first = claimOf(tree.packageAt(0));
    const claim = await contract.claimSingle(first, true, miner);
    expect(claim).toEqual({
      block: 102,
      txHash: expect.stringMatching(/^0x/),
      // What the claim paid comes from its Claimed event.
      paidRao: first.amount,
      events: [{ name: 'Claimed', epoch: 7, index: 0, hotkey: first.hotkey, recipient: first.recipientColdkey, amountRao: first.amount }],
    });
    expect(deployed.included[1]).toMatchObject({ message: 'claim_single', signer: miner.address, args: [expect.objectContaining({ index: 0, amount: Number(first.amount), proof: first.proof }), true] });
    expect(await contract.claimedCumulativeRao(first.hotkey)).toBe(first.amount);
    expect((await deployed.engine.claims()).map((record) => record.paidRao)).toEqual([first.amount.toString()]);

    expect((await contract.challengeEpoch(7, EVIDENCE, miner)).events).toEqual([{ name: 'Challenged', epoch: 7, evidenceHash: EVIDENCE, challenger: miner.address }]);
    expect(await contract.claimState()).toMatchObject({ vetoActive: true, claimReady: false, epoch: expect.objectContaining({ disputed: true }) });
    expect(await refusal(contract.claimSingle(claimOf(tree.packageAt(1)), false, miner))).toBe('claims_locked');
    expect((await contract.resolveChallenge(7, false, account(9), publisher)).events).toEqual([{ name: 'ChallengeResolved', epoch: 7, slashed: false, resolver: publisher.address }]);
    expect(await deployed.engine.challenge(7)).toMatchObject({ status: 'dismissed', beneficiary: account(9), evidenceHash: EVIDENCE });
    expect((await contract.claimState()).claimReady).toBe(true);
    expect(deployed.included.map((call) => call.message)).toEqual(['publish_epoch', 'claim_single', 'challenge_epoch', 'resolve_challenge']);
  });

  it("explains the contract's refusals (Err(ReadFailed | WriteFailed)) from its state, without sending a transaction", async () => {
    const contract = adapter();
    const latest = (await contract.latestPublishedEpoch()) ?? 0;
    const tree = buildClaimEpoch(latest + 1, [
      { hotkey: account(1), recipientColdkey: account(11), amount: 5_000_000_000n },
      { hotkey: account(4), recipientColdkey: account(14), amount: 3n },
    ]);
    await contract.publishEpoch({ epoch: latest + 1, root: tree.root, numOfLeaves: 2, totalRao: tree.totalAmount, uri: 'u' }, publisher);
    const sent = deployed.included.length;
    const pkg = claimOf(tree.packageAt(1));

    expect(await refusal(contract.publishEpoch({ epoch: latest + 1, root: tree.root, numOfLeaves: 2, totalRao: 1n, uri: 'u' }, publisher))).toBe('epoch_exists');
    expect(await refusal(contract.publishEpoch({ epoch: 1, root: tree.root, numOfLeaves: 2, totalRao: 1n, uri: 'u' }, publisher))).toBe('epoch_not_newer');
    expect(await refusal(contract.claimSingle({ ...pkg, amount: pkg.amount + 1n }, true, miner))).toBe('invalid_proof');
    expect(await refusal(contract.claimSingle({ ...pkg, recipientColdkey: account(99) }, true, miner))).toBe('invalid_proof');
    expect(await refusal(contract.claimSingle({ ...pkg, epoch: latest }, true, miner))).toBe('epoch_not_claimable');
    expect(await refusal(contract.resolveChallenge(latest + 1, true, account(9), publisher))).toBe('not_disputed');
    expect(await refusal(contract.challengeEpoch(latest + 5, EVIDENCE, miner))).toBe('unknown_epoch');
    expect(deployed.included).toHaveLength(sent);
    // The refusal itself stays readable: which message, and how the contract refused it.
    expect(await refused(contract.publishEpoch({ epoch: latest + 1, root: tree.root, numOfLeaves: 2, totalRao: 1n, uri: 'u' }, publisher))).toEqual({
      code: 'epoch_exists',
      refused: { message: 'publish_epoch', refusal: 'write_failed' },
    });
    expect(await refused(contract.challengeEpoch(latest + 5, EVIDENCE, miner))).toEqual({ code: 'unknown_epoch', refused: { message: 'challenge_epoch', refusal: 'read_failed' } });

    // Hotkey 1 claimed 4e9 in the first epoch: this one pays the difference, then nothing is left.
    await contract.claimSingle(claimOf(tree.packageAt(tree.entries.findIndex((entry) => entry.hotkey === account(1)))), true, miner);
    expect(await contract.claimedCumulativeRao(account(1))).toBe(5_000_000_000n);
    expect((await deployed.engine.claims()).at(-1)?.paidRao).toBe('1000000000');
    expect(await refusal(contract.claimSingle(claimOf(tree.packageAt(tree.entries.findIndex((entry) => entry.hotkey === account(1)))), true, miner))).toBe('nothing_to_claim');
  });

  it('answers a refusal or trap the state does not explain with its own code naming the message, in the dry run and in the block', async () => {
    const contract = adapter();
    const epoch = ((await contract.latestPublishedEpoch()) ?? 0) + 1;
    const tree = buildClaimEpoch(epoch, [{ hotkey: account(7), recipientColdkey: account(17), amount: 70n }]);
    await contract.publishEpoch({ epoch, root: tree.root, numOfLeaves: 1, totalRao: 70n, uri: 'u' }, publisher);
    const pkg = claimOf(tree.packageAt(0));
    const sent = deployed.included.length;
    try {
      for (const [forced, code] of [
        ['WriteFailed', 'write_failed'],
        ['ReadFailed', 'read_failed'],
        ['ContractTrapped', 'contract_trapped'],
        ['OutOfGas', 'out_of_gas'],
      ] as const) {
        deployed.forced.set('claim_single', forced);
        const error = await rejection(contract.claimSingle(pkg, true, miner));
        expect(error).toMatchObject({ code, refused: { message: 'claim_single', refusal: code } });
        expect(error.message).toContain('claim contract refused claim_single');
      }
      deployed.forced.set('get_epoch_info', 'ContractTrapped');
      expect(await refused(contract.epochInfo(epoch))).toEqual({ code: 'contract_trapped', refused: { message: 'get_epoch_info', refusal: 'contract_trapped' } });
      // The state cannot be read to explain a refusal: the contract's own refusal stands.
      deployed.forced.set('claim_single', 'WriteFailed');
      expect(await refused(contract.claimSingle(pkg, true, miner))).toEqual({ code: 'write_failed', refused: { message: 'claim_single', refusal: 'write_failed' } });
      deployed.forced.delete('get_epoch_info');
      deployed.forced.delete('claim_single');
      expect(deployed.included).toHaveLength(sent);

      // The dry run passes; the block traps (Contracts::ContractTrapped in ExtrinsicFailed).
      deployed.beforeNextInclusion = async () => {
        deployed.forced.set('claim_single', 'ContractTrapped');
      };
      expect(await refused(contract.claimSingle(pkg, true, miner))).toEqual({ code: 'contract_trapped', refused: { message: 'claim_single', refusal: 'contract_trapped' } });
      expect(deployed.included.at(-1)).toMatchObject({ message: 'claim_single', reverted: true });
    } finally {
      deployed.forced.clear();
    }
    expect(await contract.claimedCumulativeRao(account(7))).toBe(0n);
  });

  it('treats ExtrinsicFailed (ContractReverted in the block) as a failure and says why', async () => {
    const contract = adapter();
    const epoch = ((await contract.latestPublishedEpoch()) ?? 0) + 1;
    const tree = buildClaimEpoch(epoch, [{ hotkey: account(5), recipientColdkey: account(15), amount: 77n }]);
    await contract.publishEpoch({ epoch, root: tree.root, numOfLeaves: 1, totalRao: 77n, uri: 'u' }, publisher);
    const pkg = claimOf(tree.packageAt(0));
    // Between the adapter's dry run and the block, someone else claims for the hotkey.
    deployed.beforeNextInclusion = async () => {
      await deployed.engine.claimSingle(pkg, true, { address: account(50) });
    };

    expect(await refused(contract.claimSingle(pkg, true, miner))).toEqual({ code: 'nothing_to_claim', refused: { message: 'claim_single', refusal: 'contract_reverted' } });
    expect(deployed.included.at(-1)).toMatchObject({ message: 'claim_single', reverted: true });
    expect(await contract.claimedCumulativeRao(account(5))).toBe(77n);
  });

  it("refuses BitSota's older metadata (5a988bf: ClaimData without the hotkey) at start and on every call", async () => {
    const old = adapter(CONTRACT, MERKLEPOOL_5A988BF_METADATA_PATH);
    await expect(old.checkMetadata()).rejects.toThrow(MerklepoolMetadataError);
    await expect(old.checkMetadata()).rejects.toThrow(/merklepool-5a988bf\.json is not the contract this pool speaks \(merklepool \(ink! 5\.1\.1\) at BitSota commit a642a7de\): type ClaimData is ClaimData \{epoch: u64, index: u32, recipient_coldkey/);
    const sent = deployed.included.length;
    await expect(old.claimSingle({ epoch: 1, index: 0, hotkey: account(1), recipientColdkey: account(2), amount: 1n, proof: [] }, true, miner)).rejects.toThrow(ChainUnavailableError);
    expect(deployed.included).toHaveLength(sent);
    await expect(adapter().checkMetadata()).resolves.toBeUndefined();
  });

  it('fails closed when the contract is not configured or its metadata lacks a message', async () => {
    await expect(adapter(null).latestPublishedEpoch()).rejects.toThrow(ChainUnavailableError);
    await expect(adapter(CONTRACT, join(dir, 'missing.json')).epochInfo(1)).rejects.toThrow(/metadata not readable/);
    const partial = join(dir, 'partial.json');
    writeFileSync(partial, JSON.stringify(inkMetadata(['publish_epoch', 'claim_single', 'challenge_epoch'])));
    await expect(adapter(CONTRACT, partial).latestPublishedEpoch()).rejects.toThrow(/is not the contract this pool speaks .*message get_latest_published_epoch is missing/);
  });

  it('fails with ChainUnavailableError when a transaction is not included within its bound', async () => {
    const contract = adapter(CONTRACT, metadataPath, 1_500);
    const before = await contract.latestPublishedEpoch();
    const epoch = (before ?? 0) + 1;
    const tree = buildClaimEpoch(epoch, [{ hotkey: account(6), recipientColdkey: account(16), amount: 5n }]);
    deployed.beforeNextInclusion = () => new Promise<void>(() => undefined); // the node never produces the block

    await expect(contract.publishEpoch({ epoch, root: tree.root, numOfLeaves: 1, totalRao: 5n, uri: 'u' }, publisher)).rejects.toThrow(
      /claim contract publish_epoch: no answer from .* within 1500 ms/,
    );
    expect(await contract.latestPublishedEpoch()).toBe(before);
  });
});
