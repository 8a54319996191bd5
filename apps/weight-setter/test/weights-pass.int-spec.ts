import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { cryptoReady } from '@rcs/auth';
import type { LocalExtrinsicPool, LocalRpcServer } from '@rcs/chain/testing';
import { QueueName, WeightsJob, type WeightSetterStatusDto } from '@rcs/contracts';
import { createHttpApp, createLogger } from '@rcs/http';
import { JobQueue } from '@rcs/queue';
import { createTestRedis, metricValue, type TestRedis } from '@rcs/testing';
import { AppModule } from '../src/app.module';
import { loadWeightSetterConfig } from '../src/config/config';
import { WeightsPassService } from '../src/weights/weights-pass.service';
import type { WeightSetterJobs } from '../src/weights/weights-jobs';
import { u8aConcat } from '@polkadot/util';
import { scale } from '@rcs/chain/testing';
import { ALICE, EXPECTED, METAGRAPH, NETUID, setLastUpdate, setSubnetValue, setterEnv, snapshotDocument, SnapshotServer, startChain, until } from './support/fixtures';



describe('the weights pass (in process, real Redis, real HTTP, a local node with the real Subtensor metadata)', () => {
  let redis: TestRedis;
  let node: LocalRpcServer;
  let pool: LocalExtrinsicPool;
  let coordinator: SnapshotServer;
  let app: NestFastifyApplication;
  let pass: WeightsPassService;

  beforeAll(async () => {
    await cryptoReady();
    redis = await createTestRedis();
    ({ node, pool } = await startChain());
    coordinator = await SnapshotServer.start();
    const config = loadWeightSetterConfig(
      setterEnv({
        wsUrl: node.url,
        coordinatorUrl: coordinator.url,
        redisUrl: redis.url,
        prefix: redis.prefix,
        // One interval for the whole file: the boot pass is the only scheduled one.
        extra: { WEIGHTS_INTERVAL_SECONDS: '86400', WEIGHTS_ATTEMPTS: '2', WEIGHTS_RETRY_BACKOFF_MS: '10', WEIGHTS_INCLUSION_TIMEOUT_SECONDS: '5' },
      }),
    );
    app = await createHttpApp(AppModule.forRoot(config), { logger: createLogger({ level: 'silent', name: 'weight-setter' }) });
    await app.init();
    pass = app.get(WeightsPassService);
  });

  afterAll(async () => {
    await app?.close();
    await node?.close();
    await coordinator?.close();
    await redis?.cleanup();
  });

  const status = async (): Promise<WeightSetterStatusDto> => (await app.inject({ method: 'GET', url: '/status' })).json<WeightSetterStatusDto>();

  it('owns the hotkey, and its interval pass sets the hand-computed vector with set_weights signed by the validator', async () => {
    const done = await until(status, (s) => s.last_pass !== null);
    const extrinsic = pool.received[0];
    expect(pool.received).toHaveLength(1);
    expect(extrinsic).toMatchObject({ section: 'subtensorModule', method: 'setWeights', signer: ALICE, args: { netuid: NETUID, ...EXPECTED, versionKey: 1337 } });
    expect(done).toEqual({
      hotkey: ALICE,
      owner: true,
      last_pass: {
        at: expect.any(String),
        outcome: 'set',
        reason: null,
        mode: 'local',
        snapshot_generated_at: '2026-11-23T12:00:00.000Z',
        weights: [
          { uid: 1, hotkey: METAGRAPH[1], weight: expect.closeTo(0.45, 12), value: 65_535 },
          { uid: 2, hotkey: METAGRAPH[2], weight: expect.closeTo(0.35, 12), value: 50_972 },
          { uid: 3, hotkey: METAGRAPH[3], weight: expect.closeTo(0.2, 12), value: 29_127 },
        ],
        tx_hash: extrinsic.hash,
        block: 10_001,
        commit: null,
      },
      next_allowed_block: 10_001 + 100 + 1,
      last_reveal: null,
    });
    const readiness = await app.inject({ method: 'GET', url: '/readyz' });
    expect(readiness.statusCode).toBe(200);
    expect(readiness.json()).toMatchObject({ status: 'ready', role: 'owner', commit_reveal: 'off', hotkey: ALICE });
  });

  it('skips a pass while the rate limit holds and says from which block it may set again', async () => {
    // Alice (uid 0) set weights 60 blocks ago; WeightsSetRateLimit is the runtime default 100.
    setLastUpdate(node, [node.bestBlock - 60, 0, 0, 0]);
    const sent = pool.received.length;

    const skipped = await pass.run(1);

    expect(pool.received).toHaveLength(sent);
    const next = node.bestBlock - 60 + 100 + 1;
    expect(skipped).toMatchObject({ outcome: 'skipped', reason: expect.stringMatching(new RegExp(`^rate_limited: .*allowed at block ${next}`)), tx_hash: null });
    expect((await status()).next_allowed_block).toBe(next);

    // One block past the limit: allowed.
    setLastUpdate(node, [node.bestBlock - 101, 0, 0, 0]);
    expect(await pass.run(1)).toMatchObject({ outcome: 'set' });
    expect(pool.received).toHaveLength(sent + 1);
  });

  it('fails the job on a dispatch error, retries it with backoff, and the retry sets the weights', async () => {
    setLastUpdate(node, []);
    pool.verdicts.push({ kind: 'dispatch_error', pallet: 'SubtensorModule', error: 'NotEnoughStakeToSetWeights' });
    const sent = pool.received.length;
    const jobs = app.get<JobQueue<WeightSetterJobs>>(JobQueue);
    const scrape = async () => (await app.inject({ method: 'GET', url: '/metrics' })).body;
    const before = await scrape();

    const result = await jobs.runAndWait(QueueName.Weights, WeightsJob.SetWeights, { interval: 7 }, 30_000, { jobId: 'retry-test', attempts: 2, backoff: { type: 'fixed', delay: 10 } });

    expect(result).toMatchObject({ outcome: 'set' });
    expect(pool.received).toHaveLength(sent + 2);
    const job = await jobs.queue(QueueName.Weights).getJob('retry-test');
    expect(job?.attemptsMade).toBe(2);
    const counters = await scrape();
    expect(counters).toMatch(/weights_passes_total\{outcome="failed"\} [1-9]/);
    // prom-client now, with the names operators already scrape: the failed try and the set both counted.
    for (const outcome of ['failed', 'set']) {
      expect(metricValue(counters, 'weights_passes_total', { outcome })).toBe((metricValue(before, 'weights_passes_total', { outcome }) ?? 0) + 1);
    }
    expect(metricValue(counters, 'weights_owner')).toBe(1);
    expect(metricValue(counters, 'bullmq_queue_jobs', { queue: QueueName.Weights, state: 'failed' })).toBeDefined();
  });

  it('fails the pass without setting anything when the snapshot cannot be fetched', async () => {
    const sent = pool.received.length;
    coordinator.status = 503;
    coordinator.body = { detail: { error: 'snapshot_unavailable', message: 'not built yet' } };
    try {
      await expect(pass.run(2)).rejects.toThrow(/snapshot_unavailable/);
      expect((await status()).last_pass).toMatchObject({ outcome: 'failed', reason: expect.stringMatching(/^snapshot_unavailable: .*503/), weights: [], mode: null });
      coordinator.status = 200;
      coordinator.body = { generated_at: 'yesterday' };
      await expect(pass.run(2)).rejects.toThrow(/snapshot_unavailable: .*breaks the contract/);
    } finally {
      coordinator.status = 200;
      coordinator.body = snapshotDocument();
    }
    expect(pool.received).toHaveLength(sent);
  });

  it('checks the chain rules first: a vector the chain would refuse fails the pass naming the rule, and nothing is sent', async () => {
    setLastUpdate(node, []);
    const sent = pool.received.length;
    const cases: [string, Uint8Array, RegExp][] = [
      ['WeightsVersionKey', scale.u64(1338), /^version_key_too_low: the policy's version_key 1337 is below the subnet's WeightsVersionKey 1338/],
      ['MinAllowedWeights', scale.u16(4), /^too_few_weights: the vector has 3 non-zero weights; the subnet asks for at least 4/],
      // uid 1 holds 65,535 / 145,634 ≈ 0.45 of the vector; 29,000 / 65,535 ≈ 0.4425.
      ['MaxWeightsLimit', scale.u16(29_000), /^weight_above_limit: uid 1 would hold more than MaxWeightsLimit 29000\/65535/],
      ['ValidatorPermit', u8aConcat(scale.compact(4), new Uint8Array([0, 1, 1, 1])), /^no_validator_permit: uid 0 holds no ValidatorPermit/],
    ];
    for (const [item, value, reason] of cases) {
      const before = setSubnetValue(node, item, value);
      try {
        const failure = await pass.run(4).catch((e: unknown) => e);
        expect(failure).toMatchObject({ name: 'UnrecoverableError', message: expect.stringMatching(reason) });
        expect((await status()).last_pass).toMatchObject({ outcome: 'failed', reason: expect.stringMatching(reason) });
      } finally {
        setSubnetValue(node, item, before);
      }
    }
    expect(pool.received).toHaveLength(sent);
    expect(await pass.run(4)).toMatchObject({ outcome: 'set' });
  });
});

describe('WEIGHTS_DRY_RUN', () => {
  it('computes and records the vector without submitting anything', async () => {
    await cryptoReady();
    const redis = await createTestRedis();
    const { node, pool } = await startChain();
    const coordinator = await SnapshotServer.start();
    const config = loadWeightSetterConfig(
      setterEnv({ wsUrl: node.url, coordinatorUrl: coordinator.url, redisUrl: redis.url, prefix: redis.prefix, extra: { WEIGHTS_DRY_RUN: 'true', WEIGHTS_INTERVAL_SECONDS: '86400' } }),
    );
    const app = await createHttpApp(AppModule.forRoot(config), { logger: createLogger({ level: 'silent', name: 'weight-setter' }) });
    try {
      await app.init();
      // The owner's boot pass of the interval.
      const status = await until(async () => (await app.inject({ method: 'GET', url: '/status' })).json<WeightSetterStatusDto>(), (s) => s.last_pass !== null);
      const pass = status.last_pass as NonNullable<WeightSetterStatusDto['last_pass']>;
      expect(pass).toMatchObject({ outcome: 'dry_run', reason: null, mode: 'local', tx_hash: null, block: null });
      expect(pass.weights.map((w) => [w.uid, w.value])).toEqual([
        [1, 65_535],
        [2, 50_972],
        [3, 29_127],
      ]);
      expect(pool.received).toEqual([]);
      expect((await app.inject({ method: 'GET', url: '/readyz' })).json()).toMatchObject({ dry_run: true });
    } finally {
      await app.close();
      await node.close();
      await coordinator.close();
      await redis.cleanup();
    }
  });
});
