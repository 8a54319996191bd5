import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { encodeAddress } from '@polkadot/util-crypto';
import { ChainUnavailableError, InvalidAddressError } from '../errors';
import { LocalRpcServer } from '../testing/local-rpc-server';
import { hasher, scale, storageKey } from '../testing/storage-keys';
import { unusedLocalPort } from '../testing/unused-port';
import { PolkadotConnection } from './polkadot-connection';
import { PolkadotSubtensor } from './polkadot-subtensor';

const NETUID = 94;
const account = (fill: number): Uint8Array => new Uint8Array(32).fill(fill);
// Another SS58 prefix (Polkadot's 0) for the same account must be read the same way.
const hotkey = (fill: number, prefix = 42): string => encodeAddress(account(fill), prefix);

// Hashers as the Subtensor runtime metadata declares them (checked against the .scale file):
// TotalHotkeyAlpha: Blake2_128Concat(AccountId32), Identity(u16) → u64
// Uids: Identity(u16), Blake2_128Concat(AccountId32) → Option<u16>
// Keys: Identity(u16), Identity(u16) → AccountId32;  SubnetworkN: Identity(u16) → u16
// Owner: Blake2_128Concat(AccountId32) → AccountId32, a ValueQuery whose default is the all-zero account
const totalHotkeyAlphaKey = (fill: number, netuid: number) =>
  storageKey('SubtensorModule', 'TotalHotkeyAlpha', hasher.blake2_128Concat(account(fill)), hasher.identity(scale.u16(netuid)));
const uidsKey = (netuid: number, fill: number) =>
  storageKey('SubtensorModule', 'Uids', hasher.identity(scale.u16(netuid)), hasher.blake2_128Concat(account(fill)));
const keysKey = (netuid: number, uid: number) =>
  storageKey('SubtensorModule', 'Keys', hasher.identity(scale.u16(netuid)), hasher.identity(scale.u16(uid)));
const subnetworkNKey = (netuid: number) => storageKey('SubtensorModule', 'SubnetworkN', hasher.identity(scale.u16(netuid)));
const ownerKey = (fill: number) => storageKey('SubtensorModule', 'Owner', hasher.blake2_128Concat(account(fill)));

describe('PolkadotSubtensor against a local node serving the real Subtensor metadata', () => {
  let node: LocalRpcServer;
  let subtensor: PolkadotSubtensor;

  beforeAll(async () => {
    node = await LocalRpcServer.start({ bestBlock: 4_321 });
    subtensor = new PolkadotSubtensor(new PolkadotConnection(node.url, 10_000));
  });

  afterAll(async () => {
    await subtensor.close();
    await node.close();
  });

  it('reads the latest block from chain_getHeader', async () => {
    expect(await subtensor.latestBlock()).toBe(4_321);
    // ApiPromise started like against a real node, fetching metadata through the Metadata runtime API.
    expect(node.calls).toEqual(expect.arrayContaining(['rpc_methods', 'state_getRuntimeVersion', 'state_call', 'chain_getHeader']));
    node.setBestBlock(4_322);
    expect(await subtensor.latestBlock()).toBe(4_322);
  });

  it('reads TotalHotkeyAlpha as a bigint and 0n when absent', async () => {
    const stake = 18_446_744_073_709_551_000n; // near u64::MAX: no precision may be lost
    node.setStorage(totalHotkeyAlphaKey(1, NETUID), scale.u64(stake));
    node.setStorage(totalHotkeyAlphaKey(1, NETUID + 1), scale.u64(5n));

    expect(await subtensor.alphaStake(hotkey(1), NETUID)).toBe(stake);
    expect(await subtensor.alphaStake(hotkey(1, 0), NETUID)).toBe(stake);
    expect(await subtensor.alphaStake(hotkey(1), NETUID + 1)).toBe(5n);
    expect(await subtensor.alphaStake(hotkey(2), NETUID)).toBe(0n);
  });

  it('reads Uids, null when the hotkey is not registered', async () => {
    node.setStorage(uidsKey(NETUID, 3), scale.u16(0));
    node.setStorage(uidsKey(NETUID, 4), scale.u16(17));

    expect(await subtensor.uidOf(hotkey(3), NETUID)).toBe(0);
    expect(await subtensor.uidOf(hotkey(4), NETUID)).toBe(17);
    expect(await subtensor.uidOf(hotkey(4), NETUID + 1)).toBeNull();
    expect(await subtensor.uidOf(hotkey(5), NETUID)).toBeNull();
  });

  it('reads the metagraph hotkeys in uid order from SubnetworkN and Keys', async () => {
    const netuid = 7;
    node.setStorage(subnetworkNKey(netuid), scale.u16(3));
    [9, 8, 7].forEach((fill, uid) => node.setStorage(keysKey(netuid, uid), account(fill)));

    expect(await subtensor.metagraphHotkeys(netuid)).toEqual([hotkey(9), hotkey(8), hotkey(7)]);
    expect(await subtensor.metagraphHotkeys(netuid + 1)).toEqual([]);
  });

  it('reads Owner as the coldkey with prefix 42, null for the all-zero default or no entry', async () => {
    node.setStorage(ownerKey(20), account(21));
    node.setStorage(ownerKey(22), account(0));

    expect(await subtensor.ownerOf(hotkey(20))).toBe(hotkey(21));
    expect(await subtensor.ownerOf(hotkey(20, 0))).toBe(hotkey(21));
    expect(await subtensor.ownerOf(hotkey(22))).toBeNull();
    expect(await subtensor.ownerOf(hotkey(23))).toBeNull();
  });

  it('refuses a hotkey that is not an SS58 address before touching the chain', async () => {
    await expect(subtensor.alphaStake('not-an-address', NETUID)).rejects.toBeInstanceOf(InvalidAddressError);
    await expect(subtensor.ownerOf('not-an-address')).rejects.toBeInstanceOf(InvalidAddressError);
  });
});

describe('PolkadotSubtensor with an unreachable chain', () => {
  const TIMEOUT_MS = 500;
  const SCHEDULING_SLACK_MS = 1_000; // two busy cores may delay timers, never advance them

  it('fails fast with ChainUnavailableError when nothing listens', async () => {
    const port = await unusedLocalPort();
    const subtensor = new PolkadotSubtensor(new PolkadotConnection(`ws://127.0.0.1:${port}`, TIMEOUT_MS));
    const started = Date.now();

    await expect(subtensor.alphaStake(hotkey(1), NETUID)).rejects.toBeInstanceOf(ChainUnavailableError);
    await expect(subtensor.latestBlock()).rejects.toBeInstanceOf(ChainUnavailableError);
    await expect(subtensor.ownerOf(hotkey(1))).rejects.toBeInstanceOf(ChainUnavailableError);
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + SCHEDULING_SLACK_MS);
    await subtensor.close();
  });

  it('gives up after the timeout when the endpoint accepts but never answers', async () => {
    const silent = await listenSilently();
    const subtensor = new PolkadotSubtensor(new PolkadotConnection(`ws://127.0.0.1:${(silent.address() as AddressInfo).port}`, TIMEOUT_MS));
    const started = Date.now();

    const failure = await subtensor.uidOf(hotkey(1), NETUID).catch((error: unknown) => error);

    const elapsed = Date.now() - started;
    expect(failure).toBeInstanceOf(ChainUnavailableError);
    expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(elapsed).toBeLessThan(TIMEOUT_MS + SCHEDULING_SLACK_MS);
    await subtensor.close();
    await closeServer(silent);
  });

  it('fails while the node is down and reconnects on the next call once it is back', async () => {
    const node = await LocalRpcServer.start({ bestBlock: 12 });
    const subtensor = new PolkadotSubtensor(new PolkadotConnection(node.url, 10_000));
    expect(await subtensor.latestBlock()).toBe(12);

    await node.close();
    await expect(subtensor.latestBlock()).rejects.toBeInstanceOf(ChainUnavailableError);
    await expect(subtensor.ownerOf(hotkey(1))).rejects.toBeInstanceOf(ChainUnavailableError);

    const restarted = await LocalRpcServer.start({ bestBlock: 13, port: Number(new URL(node.url).port) });
    expect(await subtensor.latestBlock()).toBe(13);
    await subtensor.close();
    await restarted.close();
  });
});

/** A TCP server that accepts connections, reads what it is sent and never says a word. */
async function listenSilently(): Promise<Server> {
  const server = createServer((socket) => socket.resume());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

async function closeServer(server: Server): Promise<void> {
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
