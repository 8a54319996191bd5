import { Keyring } from '@polkadot/keyring';
import type { KeyringPair } from '@polkadot/keyring/types';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { hexToU8a, u8aConcat, u8aToHex } from '@polkadot/util';
import { cryptoWaitReady, decodeAddress } from '@polkadot/util-crypto';
import { ExtrinsicFailedError } from '../errors';
import { LocalExtrinsicPool } from '../testing/local-extrinsics';
import { LocalRpcServer } from '../testing/local-rpc-server';
import { hasher, scale, storageKey } from '../testing/storage-keys';
import { PolkadotConnection } from './polkadot-connection';
import { PolkadotSubtensor } from './polkadot-subtensor';

const NETUID = 94;
// Hashers and types as the Subtensor runtime metadata declares them:
// LastUpdate: Identity(u16) → Vec<u64>; WeightsSetRateLimit: Identity(u16) → u64 (default 100);
// CommitRevealWeightsEnabled: Identity(u16) → bool (default true).
const lastUpdateKey = (netuid: number) => storageKey('SubtensorModule', 'LastUpdate', hasher.identity(scale.u16(netuid)));
const rateLimitKey = (netuid: number) => storageKey('SubtensorModule', 'WeightsSetRateLimit', hasher.identity(scale.u16(netuid)));
const commitRevealKey = (netuid: number) => storageKey('SubtensorModule', 'CommitRevealWeightsEnabled', hasher.identity(scale.u16(netuid)));
const vecU64 = (values: number[]) => u8aConcat(scale.compact(values.length), ...values.map((v) => scale.u64(v)));

describe('PolkadotSubtensor weights against a local node serving the real Subtensor metadata', () => {
  let node: LocalRpcServer;
  let pool: LocalExtrinsicPool;
  let subtensor: PolkadotSubtensor;
  let validator: KeyringPair;

  beforeAll(async () => {
    await cryptoWaitReady();
    validator = new Keyring({ type: 'sr25519', ss58Format: 42 }).addFromUri('//Alice');
    node = await LocalRpcServer.start({ bestBlock: 1_000 });
    pool = new LocalExtrinsicPool(node);
    subtensor = new PolkadotSubtensor(new PolkadotConnection(node.url, 10_000), 3_000);
  });

  afterAll(async () => {
    await subtensor.close();
    await node.close();
  });

  it('reads LastUpdate, WeightsSetRateLimit and CommitRevealWeightsEnabled with the runtime defaults', async () => {
    expect(await subtensor.lastUpdate(NETUID)).toEqual([]);
    expect(await subtensor.weightsSetRateLimit(NETUID)).toBe(100);
    expect(await subtensor.commitRevealWeightsEnabled(NETUID)).toBe(true);

    node.setStorage(lastUpdateKey(NETUID), vecU64([900, 0, 955]));
    node.setStorage(rateLimitKey(NETUID), scale.u64(360));
    node.setStorage(commitRevealKey(NETUID), new Uint8Array([0]));
    expect(await subtensor.lastUpdate(NETUID)).toEqual([900, 0, 955]);
    expect(await subtensor.weightsSetRateLimit(NETUID)).toBe(360);
    expect(await subtensor.commitRevealWeightsEnabled(NETUID)).toBe(false);
  });

  it('submits SubtensorModule::set_weights signed by the validator and resolves with the block it is in', async () => {
    let lastUpdatedIn: number | null = null;
    pool.onIncluded = (_extrinsic, block) => (lastUpdatedIn = block);
    const before = node.bestBlock;

    const inclusion = await subtensor.setWeights(validator, { netuid: NETUID, uids: [0, 3, 7], values: [65_535, 1_234, 1], versionKey: 1337 });

    const received = pool.received.at(-1);
    expect(received).toMatchObject({
      callIndex: [7, 0], // SubtensorModule (pallet 7), set_weights (call 0) in this runtime
      section: 'subtensorModule',
      method: 'setWeights',
      args: { netuid: NETUID, dests: [0, 3, 7], weights: [65_535, 1_234, 1], versionKey: 1337 },
      signer: validator.address,
      isSigned: true,
    });
    expect(inclusion).toEqual({ txHash: received?.hash, block: before + 1, blockHash: node.blockHash(before + 1) });
    expect(lastUpdatedIn).toBe(before + 1);
  });

  it('reads the weight rules, the commit-reveal schedule and Drand.BeaconConfig: the runtime defaults, then seeded values', async () => {
    const quicknet = JSON.parse(readFileSync(resolve(__dirname, '../../../../../shared/vectors/timelock-weights.json'), 'utf8')) as { beacon: { public_key_g2_compressed: string } };
    expect(await subtensor.drandBeacon()).toEqual({ publicKey: hexToU8a(`0x${quicknet.beacon.public_key_g2_compressed}`), genesisTime: 1_692_803_367, period: 3 });
    const item = (name: string) => storageKey('SubtensorModule', name, hasher.identity(scale.u16(NETUID)));
    node.setStorage(commitRevealKey(NETUID), null);
    node.setStorage(rateLimitKey(NETUID), null);
    // The devnet runtime's defaults (no SubnetEpochIndex: the legacy schedule).
    expect(await subtensor.weightsRules(NETUID)).toEqual({
      tempo: 10,
      weightsVersionKey: 0n,
      minAllowedWeights: 1024,
      maxWeightsLimit: 65_535,
      validatorPermit: [],
      subnetSize: 0,
      weightsSetRateLimit: 100,
      commitRevealEnabled: true,
      commitRevealVersion: 4,
      revealPeriodEpochs: 1,
      // 2 × Timestamp::MinimumPeriod: this devnet runtime is built with fast (250 ms) blocks.
      blockTimeMs: 250,
      epochSchedule: 'legacy',
      epochState: null,
    });
    node.setStorage(item('Tempo'), scale.u16(360));
    node.setStorage(item('WeightsVersionKey'), scale.u64(841));
    node.setStorage(item('MinAllowedWeights'), scale.u16(8));
    node.setStorage(item('MaxWeightsLimit'), scale.u16(30_000));
    node.setStorage(item('ValidatorPermit'), u8aConcat(scale.compact(3), new Uint8Array([1, 0, 1])));
    node.setStorage(item('SubnetworkN'), scale.u16(3));
    node.setStorage(storageKey('SubtensorModule', 'CommitRevealWeightsVersion'), scale.u16(5));
    node.setStorage(storageKey('SubtensorModule', 'RevealPeriodEpochs', hasher.twox64Concat(scale.u16(NETUID))), scale.u64(3));
    try {
      expect(await subtensor.weightsRules(NETUID)).toMatchObject({
        tempo: 360,
        weightsVersionKey: 841n,
        minAllowedWeights: 8,
        maxWeightsLimit: 30_000,
        validatorPermit: [true, false, true],
        subnetSize: 3,
        commitRevealVersion: 5,
        revealPeriodEpochs: 3,
      });
    } finally {
      for (const name of ['Tempo', 'WeightsVersionKey', 'MinAllowedWeights', 'MaxWeightsLimit', 'ValidatorPermit', 'SubnetworkN']) node.setStorage(item(name), null);
      node.setStorage(storageKey('SubtensorModule', 'CommitRevealWeightsVersion'), null);
    }
  });

  it('reads the hotkey\'s held TimelockedWeightCommits of every epoch and the Weights row of a uid', async () => {
    const commitsKey = (epoch: number) => storageKey('SubtensorModule', 'TimelockedWeightCommits', hasher.twox64Concat(scale.u16(NETUID)), hasher.twox64Concat(scale.u64(epoch)));
    const entry = (who: string, block: number, commit: Uint8Array, round: number) => u8aConcat(decodeAddress(who), scale.u64(block), scale.bytes(commit), scale.u64(round));
    const bob = new Keyring({ type: 'sr25519', ss58Format: 42 }).addFromUri('//Bob').address;
    node.setStorage(commitsKey(917), u8aConcat(scale.compact(2), entry(validator.address, 10_001, new Uint8Array([1, 2, 3]), 1000), entry(bob, 10_002, new Uint8Array([4]), 1001)));
    node.setStorage(commitsKey(916), u8aConcat(scale.compact(1), entry(validator.address, 9_990, new Uint8Array([5]), 990)));
    node.setStorage(storageKey('SubtensorModule', 'Weights', hasher.identity(scale.u16(NETUID)), hasher.identity(scale.u16(0))), u8aConcat(scale.compact(2), scale.u16(1), scale.u16(65_535), scale.u16(3), scale.u16(9)));
    try {
      expect(await subtensor.timelockedCommits(NETUID, validator.address)).toEqual([
        { epoch: 916, hotkey: validator.address, commitBlock: 9_990, commit: new Uint8Array([5]), revealRound: 990n },
        { epoch: 917, hotkey: validator.address, commitBlock: 10_001, commit: new Uint8Array([1, 2, 3]), revealRound: 1000n },
      ]);
      expect(await subtensor.uidWeights(NETUID, 0)).toEqual([
        [1, 65_535],
        [3, 9],
      ]);
      expect(await subtensor.uidWeights(NETUID, 1)).toEqual([]);
    } finally {
      node.setStorage(commitsKey(917), null);
      node.setStorage(commitsKey(916), null);
    }
  });

  it('submits SubtensorModule::commit_timelocked_weights, which decodes with the real metadata', async () => {
    const before = node.bestBlock;
    const commit = new Uint8Array(300).map((_, i) => i % 251);

    const inclusion = await subtensor.commitTimelockedWeights(validator, { netuid: NETUID, commit, revealRound: 1000n, commitRevealVersion: 4 });

    const received = pool.received.at(-1);
    expect(received).toMatchObject({
      callIndex: [7, 113], // SubtensorModule, commit_timelocked_weights (call 113) in this runtime
      section: 'subtensorModule',
      method: 'commitTimelockedWeights',
      args: { netuid: NETUID, commit: u8aToHex(commit), revealRound: 1000, commitRevealVersion: 4 },
      signer: validator.address,
    });
    expect(inclusion).toEqual({ txHash: received?.hash, block: before + 1, blockHash: node.blockHash(before + 1) });
  });

  it('rejects with the module error when the block says ExtrinsicFailed', async () => {
    pool.verdicts.push({ kind: 'dispatch_error', pallet: 'SubtensorModule', error: 'SettingWeightsTooFast' });

    const failure = await subtensor.setWeights(validator, { netuid: NETUID, uids: [1], values: [65_535], versionKey: 7 }).catch((e: unknown) => e);

    expect(failure).toBeInstanceOf(ExtrinsicFailedError);
    expect(failure).toMatchObject({ kind: 'dispatch_error', txHash: pool.received.at(-1)?.hash });
    expect((failure as Error).message).toMatch(/subtensorModule\.SettingWeightsTooFast/);
  });

  it('rejects an invalid, refused, dropped or never included transaction', async () => {
    const request = { netuid: NETUID, uids: [1], values: [65_535], versionKey: 7 };
    pool.verdicts.push({ kind: 'invalid' }, { kind: 'refuse', message: 'Transaction has a bad signature' }, { kind: 'dropped' }, { kind: 'never_included' });

    await expect(subtensor.setWeights(validator, request)).rejects.toMatchObject({ kind: 'invalid' });
    await expect(subtensor.setWeights(validator, request)).rejects.toMatchObject({ kind: 'invalid', message: expect.stringMatching(/bad signature/) });
    await expect(subtensor.setWeights(validator, request)).rejects.toMatchObject({ kind: 'dropped' });
    await expect(subtensor.setWeights(validator, request)).rejects.toMatchObject({ kind: 'timeout' });
  }, 20_000);
});
