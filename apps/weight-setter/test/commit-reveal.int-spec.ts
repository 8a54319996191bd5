import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { hexToU8a } from '@polkadot/util';
import { decodeAddress } from '@polkadot/util-crypto';
import { cryptoReady } from '@rcs/auth';
import type { LocalExtrinsicPool, LocalRpcServer } from '@rcs/chain/testing';
import type { WeightSetterStatusDto } from '@rcs/contracts';
import { createHttpApp, createLogger } from '@rcs/http';
import { createTestRedis, metricValue, type TestRedis } from '@rcs/testing';
import { decodeWeightsPayload, timelockDecrypt } from '@rcs/timelock';
import { AppModule } from '../src/app.module';
import { loadWeightSetterConfig, type WeightSetterConfig } from '../src/config/config';
import { RevealWatchService } from '../src/weights/reveal-watch.service';
import { WeightsPassService } from '../src/weights/weights-pass.service';
import { ALICE, EXPECTED, miner, setCommitReveal, setLastUpdate, setterEnv, setTimelockedCommits, setUidWeights, SnapshotServer, startChain, until, type HeldCommit } from './support/fixtures';

const vectors = JSON.parse(readFileSync(resolve(__dirname, '../../../../shared/vectors/timelock-weights.json'), 'utf8')) as {
  beacon: { genesis_time: number };
  pulses: { round: number; signature_g1_compressed: string }[];
};
const pulse = (round: number): Uint8Array => hexToU8a(`0x${vectors.pulses.find((p) => p.round === round)?.signature_g1_compressed ?? ''}`);

/**
 * Hand-computed for the devnet runtime (netuid 94, Tempo 10, RevealPeriodEpochs 1, 250 ms blocks, quicknet):
 * head 10,000 is in epoch ⌊10,095 / 11⌋ = 917; the reveal epoch 918 starts at 918·11 − 95 = 10,003, so
 * reveal_block = 10,006, 6 blocks (1.5 s) ahead; at genesis + 2,999.5 s the round is ⌊(2,999.5 + 1.5) / 3⌋ = 1000.
 * The commit lands in 10,001 (epoch 917); the reveal epoch ends at 919·11 − 95 − 1 = 10,013.
 */
const CLOCK_MS = (vectors.beacon.genesis_time + 2_999.5) * 1000;

describe('commit-reveal on a local node with the real Subtensor metadata and the real quicknet pulses', () => {
  let redis: TestRedis;
  let node: LocalRpcServer;
  let pool: LocalExtrinsicPool;
  let coordinator: SnapshotServer;
  let config: WeightSetterConfig;
  let app: NestFastifyApplication;
  /** What the node filed in TimelockedWeightCommits, by epoch. */
  const held = new Map<number, HeldCommit[]>();

  const boot = async (): Promise<NestFastifyApplication> => {
    const started = await createHttpApp(AppModule.forRoot(config, { now: () => CLOCK_MS }), { logger: createLogger({ level: 'silent', name: 'weight-setter' }) });
    await started.init();
    return started;
  };
  const status = async (): Promise<WeightSetterStatusDto> => (await app.inject({ method: 'GET', url: '/status' })).json<WeightSetterStatusDto>();
  const metrics = async (): Promise<string> => (await app.inject({ method: 'GET', url: '/metrics' })).body;

  beforeAll(async () => {
    await cryptoReady();
    redis = await createTestRedis();
    ({ node, pool } = await startChain());
    setCommitReveal(node, true);
    // The node files every landed commit as subtensor does: under the epoch of its block.
    pool.onIncluded = (extrinsic, block) => {
      if (extrinsic.method !== 'commitTimelockedWeights') return;
      const epoch = Math.floor((block + 95) / 11);
      const entry = { hotkey: extrinsic.signer, commitBlock: block, commit: hexToU8a(String(extrinsic.args['commit'])), revealRound: BigInt(String(extrinsic.args['revealRound'])) };
      held.set(epoch, [...(held.get(epoch) ?? []), entry]);
      setTimelockedCommits(node, epoch, held.get(epoch) ?? []);
    };
    coordinator = await SnapshotServer.start();
    config = loadWeightSetterConfig(
      setterEnv({ wsUrl: node.url, coordinatorUrl: coordinator.url, redisUrl: redis.url, prefix: redis.prefix, extra: { WEIGHTS_INTERVAL_SECONDS: '86400', WEIGHTS_INCLUSION_TIMEOUT_SECONDS: '5' } }),
    );
    app = await boot();
  });

  afterAll(async () => {
    await app?.close();
    await node?.close();
    await coordinator?.close();
    await redis?.cleanup();
  });

  it('commits timelocked weights sealed to round 1000, which the node opens with the real round-1000 pulse into exactly the payload meant', async () => {
    const done = await until(status, (s) => s.last_pass !== null);

    expect(pool.received).toHaveLength(1);
    const [extrinsic] = pool.received;
    expect(extrinsic).toMatchObject({ callIndex: [7, 113], method: 'commitTimelockedWeights', signer: ALICE, args: { netuid: 94, revealRound: 1000, commitRevealVersion: 4 } });
    const ciphertext = hexToU8a(String(extrinsic.args['commit']));
    expect(ciphertext.length).toBe(244 + 55); // payload: 33 (hotkey) + 7 (uids) + 7 (values) + 8 (version key)
    expect(decodeWeightsPayload(timelockDecrypt(ciphertext, pulse(1000)))).toEqual({ hotkey: decodeAddress(ALICE), uids: EXPECTED.dests, values: EXPECTED.weights, versionKey: 1337n });
    expect(() => timelockDecrypt(ciphertext, pulse(2000))).toThrow(expect.objectContaining({ code: 'wrong_round' }));
    expect(done.last_pass).toMatchObject({
      outcome: 'committed',
      reason: null,
      tx_hash: extrinsic.hash,
      block: 10_001,
      commit: { reveal_round: 1000, reveal_block: 10_006, ciphertext: extrinsic.args['commit'], tx_hash: extrinsic.hash, block: 10_001 },
    });
    expect(done.last_reveal).toBeNull();
    expect(metricValue(await metrics(), 'weights_commits_total', { outcome: 'committed' })).toBe(1);
    const readiness = await app.inject({ method: 'GET', url: '/readyz' });
    expect([readiness.statusCode, readiness.json()]).toEqual([200, expect.objectContaining({ status: 'ready', commit_reveal: 'on' })]);
  });

  it('never commits twice while the reveal is pending: a retry of the pass reports its commit, a later pass waits', async () => {
    const pass = app.get(WeightsPassService);
    const interval = (await status()).last_pass ? Math.floor(Date.now() / 86_400_000) : -1;

    expect(await pass.run(interval)).toMatchObject({ outcome: 'committed', block: 10_001 });
    expect(await pass.run(interval + 1)).toMatchObject({ outcome: 'skipped', reason: expect.stringMatching(/^reveal_pending: the commit of block 10001 is expected revealed from block 10006/) });
    expect(pool.received).toHaveLength(1);
    expect(await app.get(RevealWatchService).check()).toBeNull(); // block 10,001: not due
  });

  it('a setter restarted between commit and reveal confirms the reveal: the commit gone and Weights holding the committed vector', async () => {
    await app.close();
    // The chain reveals in block 10,006: it takes the commit, applies the weights and moves LastUpdate.
    held.clear();
    setTimelockedCommits(node, 917, []);
    setUidWeights(node, 0, EXPECTED.dests.map((uid, i): [number, number] => [uid, EXPECTED.weights[i]]));
    setLastUpdate(node, [10_006, 0, 0, 0]);
    node.setBestBlock(10_006);
    app = await boot();

    const revealed = await until(status, (s) => s.last_reveal !== null);

    expect(revealed.last_reveal).toEqual({
      interval: expect.any(Number),
      outcome: 'revealed',
      block: 10_006,
      weights: EXPECTED.dests.map((uid, i) => expect.objectContaining({ uid, value: EXPECTED.weights[i] })),
    });
    const scraped = await metrics();
    expect(metricValue(scraped, 'weights_commits_total', { outcome: 'revealed' })).toBe(1);
    expect(metricValue(scraped, 'weights_commits_total', { outcome: 'reveal_missed' })).toBe(0);
    expect(pool.received).toHaveLength(1);
  });

  it('reports reveal_missed once the reveal epoch passed with the commit still held, and the next pass commits again', async () => {
    const pass = app.get(WeightsPassService);
    setLastUpdate(node, []);
    const committed = await pass.run(1_000);
    expect(committed).toMatchObject({ outcome: 'committed', block: 10_007 });
    // Head 10,006 (epoch 918) → reveal epoch 919 from 10,014: reveal_block 10,017, deadline 920·11 − 96 = 10,024.
    expect(committed.commit).toMatchObject({ reveal_block: 10_017 });
    const watcher = app.get(RevealWatchService);

    node.setBestBlock(10_024);
    expect(await watcher.check()).toBeNull();
    node.setBestBlock(10_025);
    expect(await watcher.check()).toEqual({ interval: 1_000, outcome: 'reveal_missed', block: 10_025, weights: committed.weights });

    expect((await status()).last_reveal).toMatchObject({ outcome: 'reveal_missed', interval: 1_000 });
    expect(metricValue(await metrics(), 'weights_commits_total', { outcome: 'reveal_missed' })).toBe(1);
    expect(await watcher.check()).toBeNull(); // reported once
    setLastUpdate(node, []);
    expect(await pass.run(1_001)).toMatchObject({ outcome: 'committed' });
    expect(pool.received).toHaveLength(3);
  });

  it('refuses to commit past the chain\'s cap of 10 unrevealed commits in an epoch, without retrying', async () => {
    // Settle the pending commit as revealed-elsewhere-missed first: past its deadline.
    node.setBestBlock(10_100);
    await app.get(RevealWatchService).check();
    setLastUpdate(node, []);
    const epoch = Math.floor((10_100 + 95) / 11);
    setTimelockedCommits(node, epoch, Array.from({ length: 10 }, (_, i) => ({ hotkey: ALICE, commitBlock: 10_090 + i, commit: new Uint8Array([i]), revealRound: 1n })));
    const sent = pool.received.length;

    const failure = await app.get(WeightsPassService).run(1_002).catch((e: unknown) => e);

    expect(failure).toMatchObject({ name: 'UnrecoverableError', message: expect.stringMatching(/^too_many_unrevealed_commits: the hotkey already holds 10 unrevealed commits/) });
    expect(pool.received).toHaveLength(sent);
    setTimelockedCommits(node, epoch, []);
  });
});

describe('commit-reveal on the dev chain: committed, then revealed by the dev beacon', () => {
  const seed = JSON.stringify({ subnets: { '94': [ALICE, ...EXPECTED.dests.map((n) => miner(n))].map((hotkey, uid) => ({ hotkey, stake: '1', uid })) } });

  async function runSetter(extra: NodeJS.ProcessEnv, done: (s: WeightSetterStatusDto) => boolean): Promise<WeightSetterStatusDto> {
    await cryptoReady();
    const redis = await createTestRedis();
    const coordinator = await SnapshotServer.start();
    const config = loadWeightSetterConfig({
      ...setterEnv({ wsUrl: 'ws://unused', coordinatorUrl: coordinator.url, redisUrl: redis.url, prefix: redis.prefix }),
      CHAIN: 'dev',
      DEV_CHAIN_SEED: seed,
      // 200 ms blocks, tempo 20: epochs of 4.2 s, longer than the beacon's 3 s period.
      DEV_CHAIN_BLOCK_TIME_MS: '200',
      DEV_CHAIN_TEMPO: '20',
      WEIGHTS_INTERVAL_SECONDS: '86400',
      WEIGHTS_LOCK_TTL_SECONDS: '1',
      ...extra,
    });
    const app = await createHttpApp(AppModule.forRoot(config), { logger: createLogger({ level: 'silent', name: 'weight-setter' }) });
    try {
      await app.init();
      const read = async () => (await app.inject({ method: 'GET', url: '/status' })).json<WeightSetterStatusDto>();
      const deadline = Date.now() + 25_000;
      for (;;) {
        const value = await read();
        if (done(value)) return value;
        if (Date.now() > deadline) throw new Error(`not within 25 s: ${JSON.stringify(value)}`);
        await new Promise((resolveSoon) => setTimeout(resolveSoon, 100));
      }
    } finally {
      await app.close();
      await coordinator.close();
      await redis.cleanup();
    }
  }

  it('commits by default (DEV_CHAIN_COMMIT_REVEAL on) and confirms the reveal of exactly the committed vector', async () => {
    const status = await runSetter({}, (s) => s.last_reveal !== null);

    expect(status.last_pass).toMatchObject({ outcome: 'committed', commit: expect.objectContaining({ reveal_round: expect.any(Number) }) });
    const commit = status.last_pass?.commit;
    expect(status.last_reveal).toMatchObject({ outcome: 'revealed', weights: status.last_pass?.weights });
    expect(status.last_reveal?.block).toBeGreaterThanOrEqual((commit?.block ?? 0) + 1);
    expect(status.last_reveal?.block).toBeLessThanOrEqual(commit?.reveal_block ?? 0);
  }, 40_000);

  it('DEV_CHAIN_COMMIT_REVEAL=off keeps the plain set_weights path', async () => {
    const status = await runSetter({ DEV_CHAIN_COMMIT_REVEAL: 'off' }, (s) => s.last_pass !== null);

    expect(status.last_pass).toMatchObject({ outcome: 'set', commit: null, weights: EXPECTED.dests.map((uid, i) => expect.objectContaining({ uid, value: EXPECTED.weights[i] })) });
    expect(status.last_reveal).toBeNull();
  });
});
