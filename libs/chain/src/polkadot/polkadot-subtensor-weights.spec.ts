import { Keyring } from '@polkadot/keyring';
import type { KeyringPair } from '@polkadot/keyring/types';
import { u8aConcat } from '@polkadot/util';
import { cryptoWaitReady } from '@polkadot/util-crypto';
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
