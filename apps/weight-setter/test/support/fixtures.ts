import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { u8aConcat } from '@polkadot/util';
import { decodeAddress, encodeAddress } from '@polkadot/util-crypto';
import { hasher, LocalExtrinsicPool, LocalRpcServer, scale, storageKey } from '@rcs/chain/testing';

export const NETUID = 94;
/** `//Alice`, the validator of these tests; it holds uid 0. */
export const ALICE = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
export const miner = (n: number): string => encodeAddress(new Uint8Array(32).fill(n + 1), 42);
/** uid 0 Alice, uids 1..3 miners 1..3; miner 9 holds no uid. */
export const METAGRAPH = [ALICE, miner(1), miner(2), miner(3)];

const key = (item: string, ...parts: Uint8Array[]) => storageKey('SubtensorModule', item, ...parts);
const netuidPart = () => hasher.identity(scale.u16(NETUID));

/**
 * Seeds the metagraph, commit-reveal off, and LastUpdate as given (index = uid; empty: never set); every
 * uid holds a ValidatorPermit and MinAllowedWeights is 1 (the runtime's defaults are no permit and 1024).
 */
export function seedChain(node: LocalRpcServer, lastUpdate: number[] = []): void {
  node.setStorage(key('SubnetworkN', netuidPart()), scale.u16(METAGRAPH.length));
  node.setStorage(key('ValidatorPermit', netuidPart()), u8aConcat(scale.compact(METAGRAPH.length), ...METAGRAPH.map(() => new Uint8Array([1]))));
  node.setStorage(key('MinAllowedWeights', netuidPart()), scale.u16(1));
  METAGRAPH.forEach((hotkey, uid) => {
    node.setStorage(key('Keys', netuidPart(), hasher.identity(scale.u16(uid))), decodeAddress(hotkey));
    node.setStorage(key('Uids', netuidPart(), hasher.blake2_128Concat(decodeAddress(hotkey))), scale.u16(uid));
  });
  setCommitReveal(node, false);
  setLastUpdate(node, lastUpdate);
}

export function setCommitReveal(node: LocalRpcServer, on: boolean): void {
  node.setStorage(key('CommitRevealWeightsEnabled', netuidPart()), new Uint8Array([on ? 1 : 0]));
}

/** Sets a per-subnet storage value (e.g. `WeightsVersionKey`, `MinAllowedWeights`, `MaxWeightsLimit`); returns the one it replaced. */
export function setSubnetValue(node: LocalRpcServer, item: string, encoded: Uint8Array | null): Uint8Array | null {
  const previous = node.storageAt(key(item, netuidPart()));
  node.setStorage(key(item, netuidPart()), encoded);
  return previous;
}

/** One entry of `TimelockedWeightCommits(netuid, epoch)`: `(AccountId32, commit block u64, commit Bytes, reveal round u64)`. */
export interface HeldCommit {
  hotkey: string;
  commitBlock: number;
  commit: Uint8Array;
  revealRound: bigint;
}

export function setTimelockedCommits(node: LocalRpcServer, epoch: number, commits: HeldCommit[]): void {
  const storage = storageKey('SubtensorModule', 'TimelockedWeightCommits', hasher.twox64Concat(scale.u16(NETUID)), hasher.twox64Concat(scale.u64(epoch)));
  const encoded = commits.map((c) => u8aConcat(decodeAddress(c.hotkey), scale.u64(c.commitBlock), scale.bytes(c.commit), scale.u64(c.revealRound)));
  node.setStorage(storage, commits.length === 0 ? null : u8aConcat(scale.compact(commits.length), ...encoded));
}

/** `Weights(netuid, uid)`: `Vec<(u16, u16)>`. */
export function setUidWeights(node: LocalRpcServer, uid: number, pairs: [number, number][]): void {
  const encoded = u8aConcat(scale.compact(pairs.length), ...pairs.map(([u, v]) => u8aConcat(scale.u16(u), scale.u16(v))));
  node.setStorage(key('Weights', netuidPart(), hasher.identity(scale.u16(uid))), encoded);
}

export function setLastUpdate(node: LocalRpcServer, blocks: number[]): void {
  node.setStorage(key('LastUpdate', netuidPart()), u8aConcat(scale.compact(blocks.length), ...blocks.map((b) => scale.u64(b))));
}

/**
 * The snapshot of these tests, `local` mode: competition a (weight 0.75): miner 1 score 3, miner 2
 * score 1, miner 9 (no uid) score 4; competition b (0.25): miners 2 and 3, score 2 each. Hand-computed
 * vector: uid1 0.45 → 65535, uid2 0.35 → 50972, uid3 0.2 → 29127.
 */
export function snapshotDocument(versionKey = 1337): Record<string, unknown> {
  const competition = (slug: string, weight: number, miners: [number, number][]) => ({
    competition_id: `task-${slug}`,
    slug,
    title: slug,
    weight,
    miners: miners.map(([n, score]) => ({ miner_hotkey: miner(n), score })),
  });
  return {
    generated_at: '2026-11-23T12:00:00.000Z',
    score_ema_days: 10,
    competition_count: 2,
    reward_policy: { version: 2, pools: [], validator_weights: { mode: 'local', targets: [], version_key: versionKey } },
    competitions: [competition('a', 0.75, [[9, 4], [1, 3], [2, 1]]), competition('b', 0.25, [[2, 2], [3, 2]])],
  };
}
export const EXPECTED = { dests: [1, 2, 3], weights: [65_535, 50_972, 29_127] };

/** A real HTTP server standing in for the coordinator's `GET /api/v1/reward-snapshot`; `answer` can be changed at any time. */
export class SnapshotServer {
  status = 200;
  body: unknown = snapshotDocument();
  requests = 0;

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<SnapshotServer> {
    let self: SnapshotServer | null = null;
    const server = createServer((req, res) => {
      if (!self) return;
      self.requests++;
      if (req.url !== '/api/v1/reward-snapshot') return void res.writeHead(404).end();
      res.writeHead(self.status, { 'content-type': 'application/json' }).end(JSON.stringify(self.body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    self = new SnapshotServer(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return self;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

export async function startChain(bestBlock = 10_000): Promise<{ node: LocalRpcServer; pool: LocalExtrinsicPool }> {
  const node = await LocalRpcServer.start({ bestBlock });
  const pool = new LocalExtrinsicPool(node);
  seedChain(node);
  return { node, pool };
}

/** The environment of a setter against these fixtures. */
export function setterEnv(options: { wsUrl: string; coordinatorUrl: string; redisUrl: string; prefix: string; extra?: NodeJS.ProcessEnv }): NodeJS.ProcessEnv {
  return {
    CHAIN: 'polkadot',
    CHAIN_WS_URL: options.wsUrl,
    NETUID: String(NETUID),
    VALIDATOR_SECRET_URI: '//Alice',
    COORDINATOR_URL: options.coordinatorUrl,
    REDIS_URL: options.redisUrl,
    REDIS_KEY_PREFIX: options.prefix,
    LOG_LEVEL: 'silent',
    ...options.extra,
  };
}

/** A condition a test waits for did not come in time. */
export class ConditionTimeoutError extends Error {
  override name = 'ConditionTimeoutError';
}

/** Reads until `done` holds (polling every 50 ms), or fails naming the last value after `timeoutMs`. */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new ConditionTimeoutError(`condition not met within ${timeoutMs} ms; last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
