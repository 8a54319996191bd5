import { createHash } from 'node:crypto';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { keypairFromUri } from '@rcs/auth';
import { CLAIM_CONTRACT_PORT, type ClaimContractPort } from '@rcs/chain';
import { EpochJob, QueueName } from '@rcs/contracts';
import { listen } from '@rcs/http';
import { ss58ToAccountId, accountIdToSs58, verifyClaimPackage, type ClaimPackage } from '@rcs/merkle';
import { JobQueue } from '@rcs/queue';
import { FakeCoordinator, metricValue, scrapeMetrics, snapshotOf, SseClient } from '@rcs/testing';
import { loadPoolServiceConfig } from '../src/config/config';
import { rolloverJobId } from '../src/epochs/epochs.job';
import { EpochPublisher } from '../src/epochs/epoch-publisher.service';
import { EpochsService } from '../src/epochs/epochs.service';
import { SnapshotRefusedError, SnapshotUnavailableError } from '../src/epochs/errors';
import type { PoolJobs } from '../src/jobs/pool-jobs';
import { bootEpochCheckDone, createPoolApp, PoolClient, PoolHarness, poolStoresEnv, startPool, type ErrorBody } from './support/harness';
import { simulatedClaimsEnv } from './support/own-stores';

const BUDGET = 1000n;

describe('pool epochs and claims (real Postgres, Redis, HTTP, dev chain)', () => {
  const coordinator = new FakeCoordinator();
  let pool: PoolHarness;
  let contract: ClaimContractPort;
  let epochs: EpochsService;
  const hk: Record<string, string> = {};
  const cold: Record<string, string> = {};

  beforeAll(async () => {
    await coordinator.start();
    for (const name of ['a', 'b', 'c', 'd']) {
      hk[name] = (await keypairFromUri(`//EpochMiner/${name}`)).address;
      cold[name] = (await keypairFromUri(`//EpochCold/${name}`)).address;
    }
    pool = await startPool({
      COORDINATOR_URL: coordinator.url,
      ...simulatedClaimsEnv(BUDGET),
    });
    await bootEpochCheckDone(pool.app);
    contract = pool.app.get<ClaimContractPort>(CLAIM_CONTRACT_PORT);
    epochs = pool.app.get(EpochsService);
    for (const name of ['a', 'b', 'c']) {
      await pool.db.dataSource.query(`INSERT INTO miners (hotkey, recipient_coldkey, recipient_updated_at) VALUES ($1, $2, now())`, [hk[name], cold[name]]);
    }
    // d is a miner without a stored recipient.
    await pool.db.dataSource.query(`INSERT INTO miners (hotkey) VALUES ($1)`, [hk['d']]);
  }, 60_000);

  afterAll(async () => {
    await pool?.close();
    await coordinator.close();
  });

  const epochCount = async (epoch: number) =>
    Number(((await pool.db.dataSource.query(`SELECT count(*)::int AS n FROM epochs WHERE epoch = $1`, [epoch])) as { n: number }[])[0].n);

  it('stores and publishes an epoch: units sum to the budget, leaves only for stored recipients, packages verify against the chain root, receipts hash as announced', async () => {
    coordinator.snapshot = snapshotOf([
      [hk['a'], 3],
      [hk['b'], 1],
      [hk['d'], 1],
    ]);
    const events = await SseClient.connect(`${pool.url}/api/v1/events`);
    expect(await epochs.rollover(10)).toEqual({ epoch: 10, rollover: 'stored', publication: 'published' });
    // Stored, then published on chain: both announced on the public stream.
    const announced = await events.take(2);
    events.close();
    expect(announced.map((event) => [event.event, (event.data as { publication: string }).publication])).toEqual([
      ['epoch_published', 'pending'],
      ['epoch_published', 'published'],
    ]);
    expect(announced[1].data).toMatchObject({ epoch: 10, leaf_count: 2, total_amount: '800', published_block: expect.any(Number) });
    const metrics = await scrapeMetrics(pool.url);
    expect(metricValue(metrics, 'pool_epochs_total', { publication: 'stored' })).toBe(1);
    expect(metricValue(metrics, 'pool_epochs_total', { publication: 'published' })).toBe(1);
    expect(metricValue(metrics, 'bullmq_queue_jobs', { queue: 'pool.epochs', state: 'waiting' })).toBeDefined();

    expect((await pool.client.send('GET', '/claims/epochs')).body).toEqual({ epochs: [10], default_epoch: 10 });
    const meta = await pool.client.send<Record<string, unknown>>('GET', '/claims/epoch/10');
    expect(meta.status).toBe(200);
    expect(meta.body).toMatchObject({ epoch: 10, leaf_count: 2, status: 'published', hash: 'blake2b-256', tree: 'rfc9162', snapshot_stale: false });
    // 1000 by 3:1:1 = 600, 200, 200; d accrues without a leaf.
    expect(meta.body['total_amount']).toBe('800');

    const allocation = await fetch(`${pool.url}/claims/epoch/10/allocation`);
    const bytes = await allocation.text();
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(meta.body['allocation_sha256']);
    const document = JSON.parse(bytes) as { entries: { hotkey: string; units: string; recipient_coldkey: string | null; competitions: { slug: string; units: string }[] }[]; carried_over: string };
    expect(document.entries.reduce((sum, e) => sum + BigInt(e.units), 0n) + BigInt(document.carried_over)).toBe(BUDGET);
    expect(document.entries.find((e) => e.hotkey === hk['d'])).toMatchObject({ units: '200', recipient_coldkey: null, competitions: [{ slug: 'alpha', units: '200' }] });

    // Any SS58 spelling of the hotkey finds its leaf; the alias answers the same package.
    const otherSpelling = accountIdToSs58(ss58ToAccountId(hk['a']), 0);
    const pkg = await pool.client.send<ClaimPackage>('GET', `/claims/epoch/proof/${otherSpelling}`);
    expect(pkg.status).toBe(200);
    expect(pkg.body).toMatchObject({ epoch: 10, hotkey: hk['a'], recipient_coldkey: cold['a'], amount: '600', amount_units: '600' });
    expect((await pool.client.send('GET', `/claims/epoch/10/claim/${hk['a']}`)).body).toEqual(pkg.body);
    const onChain = await contract.epochInfo(10);
    expect(onChain?.root).toBe(pkg.body.root);
    expect(verifyClaimPackage(pkg.body, { root: onChain?.root ?? '', leafCount: onChain?.numOfLeaves ?? 0 })).toMatchObject({ ok: true });
    for (const tampered of [{ amount: '601', amount_units: '601' }, { recipient_coldkey: cold['b'] }, { index: 1 - pkg.body.index }, { proof: [`0x${'00'.repeat(32)}`] }]) {
      expect(verifyClaimPackage({ ...pkg.body, ...tampered }, { root: onChain?.root ?? '', leafCount: 2 }).ok).toBe(false);
    }

    const missing = await pool.client.send<ErrorBody>('GET', `/claims/epoch/proof/${hk['d']}`);
    expect([missing.status, missing.body.detail.error]).toEqual([404, 'hotkey_not_in_epoch']);
    expect((await pool.client.send<ErrorBody>('GET', '/claims/epoch/99/proof/x')).body.detail.error).toBe('epoch_not_found');

    const status = await pool.client.send<{ latest_epoch: number; payout: { publication: { enabled: boolean; pending_epoch: number | null } } }>('GET', '/status');
    expect(status.body.latest_epoch).toBe(10);
    expect(status.body.payout.publication).toMatchObject({ enabled: true, pending_epoch: null });
    // What BitSota's pool verifier checks on /status: healthy, the on-chain runtime and proof API enabled, no read error or veto, the publisher running.
    expect(status.body).toMatchObject({
      status: 'healthy',
      onchain_runtime: {
        enabled: true,
        contract: 'dev',
        contract_status: { read_error: null, is_veto_active: false, active_veto_count: 0, claim_ready: true },
        proof_api: { enabled: true },
        accounts: { publisher: (await keypairFromUri('//Alice')).address },
        processes: [{ name: 'publisher', running: true }],
      },
    });
  }, 60_000);

  it('runs the same window twice through pool.epochs (job id = window) and concurrently: one epoch, one publication', async () => {
    const jobs = pool.app.get<JobQueue<PoolJobs>>(JobQueue);
    const [first, second] = await Promise.all([
      jobs.runAndWait(QueueName.Epochs, EpochJob.Rollover, { window: 11 }, 30_000, { jobId: rolloverJobId(11) }),
      epochs.rollover(11),
    ]);
    expect([first.rollover, second.rollover].sort()).toEqual(['existed', 'stored']);
    expect(await epochCount(11)).toBe(1);
    expect(await contract.latestPublishedEpoch()).toBe(11);
    const again = await jobs.runAndWait(QueueName.Epochs, EpochJob.Rollover, { window: 11 }, 30_000, { jobId: `${rolloverJobId(11)}-again` });
    expect(again).toEqual({ epoch: 11, rollover: 'existed', publication: 'already_published' });

    // Killed after the chain accepted the root but before the pool recorded it: the re-run finds the same root on chain.
    await pool.db.dataSource.query(`UPDATE epochs SET publication = 'pending', published_at = NULL WHERE epoch = 11`);
    expect(await epochs.rollover(11)).toEqual({ epoch: 11, rollover: 'existed', publication: 'already_published' });
    expect(((await pool.db.dataSource.query(`SELECT publication, last_publish_error FROM epochs WHERE epoch = 11`)) as unknown[])[0]).toEqual({
      publication: 'published',
      last_publish_error: null,
    });
  }, 60_000);

  it('pays a simulated claim once (amount − claimed), refuses a second, a tampered package and a superseded epoch, and pays only the difference later', async () => {
    const pkg = (await pool.client.send<ClaimPackage>('GET', `/claims/epoch/proof/${hk['a']}`)).body;
    expect(pkg.epoch).toBe(11);
    // a: 600 + 600 by now.
    expect(pkg.amount).toBe('1200');
    const tampered = await pool.client.send<{ detail: { type: string }[] }>('POST', '/claims/epoch/claim', { ...pkg, amount: '1300', amount_units: '1300' });
    expect([tampered.status, tampered.body.detail[0].type]).toEqual([422, 'invalid_proof']);

    const simulatedBefore = metricValue(await scrapeMetrics(pool.url), 'pool_claims_simulated_total') ?? 0;
    const results = await Promise.all(Array.from({ length: 5 }, () => pool.client.send<Record<string, unknown>>('POST', '/claims/epoch/claim', pkg)));
    const paid = results.filter((r) => r.status === 200);
    expect(paid).toHaveLength(1);
    expect(metricValue(await scrapeMetrics(pool.url), 'pool_claims_simulated_total')).toBe(simulatedBefore + 1);
    expect(paid[0].body).toMatchObject({ status: 'claimed', paid: '1200', recipient_coldkey: cold['a'] });
    expect(results.filter((r) => r.status === 409).map((r) => (r.body as ErrorBody).detail.error)).toEqual(Array(4).fill('nothing_to_claim'));

    // A recipient change moves the next payout, never its amount; the old epoch is no longer claimable.
    await pool.db.dataSource.query(`UPDATE miners SET recipient_coldkey = $2 WHERE hotkey = $1`, [hk['a'], cold['c']]);
    coordinator.snapshot = snapshotOf([[hk['a'], 1]]);
    expect((await epochs.rollover(12)).publication).toBe('published');
    const old = await pool.client.send<ErrorBody>('POST', '/claims/epoch/11/claim', pkg);
    expect([old.status, old.body.detail.error]).toEqual([409, 'epoch_not_claimable']);
    const next = (await pool.client.send<ClaimPackage>('GET', `/claims/epoch/proof/${hk['a']}`)).body;
    expect(next).toMatchObject({ epoch: 12, amount: '2200', recipient_coldkey: cold['c'] });
    const second = await pool.client.send<Record<string, unknown>>('POST', '/claims/epoch/12/claim', next);
    expect(second.body).toMatchObject({ paid: '1000', recipient_coldkey: cold['c'], claimed_cumulative: '2200' });
    const ledger = await pool.client.send<{ claims: { paid: string }[] }>('GET', '/claims/ledger/12');
    expect(ledger.body.claims.map((c) => c.paid)).toEqual(['1000']);

    // Disputed: claims are locked.
    const b = (await pool.client.send<ClaimPackage>('GET', `/claims/epoch/proof/${hk['b']}`)).body;
    await contract.challengeEpoch(12, `0x${'11'.repeat(32)}`, await keypairFromUri('//Bob'));
    const locked = await pool.client.send<ErrorBody>('POST', '/claims/epoch/claim', b);
    expect([locked.status, locked.body.detail.error]).toEqual([409, 'claims_locked']);
    expect((await pool.client.send<{ status: string }>('GET', '/claims/epoch/12')).body.status).toBe('disputed');
  }, 60_000);

  it('without the coordinator uses the last stored snapshot within POOL_SNAPSHOT_MAX_AGE_SECONDS, else stores no epoch and says so', async () => {
    coordinator.snapshot = null;
    expect(await epochs.rollover(13)).toMatchObject({ rollover: 'stored' });
    expect((await pool.client.send<{ snapshot_stale: boolean }>('GET', '/claims/epoch/13')).body.snapshot_stale).toBe(true);
    await pool.db.dataSource.query(`UPDATE reward_snapshots SET fetched_at = now() - interval '2 hours'`);
    expect(await epochs.rollover(14)).toEqual({ epoch: 14, rollover: 'no_snapshot', publication: null });
    expect(await epochCount(14)).toBe(0);
    const status = await pool.client.send<{ payout: { snapshot: { unavailable_window: number; last_error: string } } }>('GET', '/status');
    expect(status.body.payout.snapshot.unavailable_window).toBe(14);
    expect(status.body.payout.snapshot.last_error).toContain('503');

    // Through pool.epochs with two tries: the first fails and BullMQ runs it again after its backoff (no sleep holds the worker); the last falls back as above.
    await expect(epochs.rollover(14, false)).rejects.toThrow(SnapshotUnavailableError);
    const jobs = pool.app.get<JobQueue<PoolJobs>>(JobQueue);
    const jobId = `${rolloverJobId(14)}-tries`;
    const retried = await jobs.runAndWait(QueueName.Epochs, EpochJob.Rollover, { window: 14 }, 30_000, { jobId, attempts: 2, backoff: { type: 'custom' } });
    expect(retried).toEqual({ epoch: 14, rollover: 'no_snapshot', publication: null });
    expect((await jobs.queue(QueueName.Epochs, EpochJob.Rollover).getJob(jobId))?.attemptsStarted).toBe(2);
  }, 60_000);

  it('surfaces a failing publication in /status and retries it; claims before claims_open_at answer claims_not_open', async () => {
    // Another process publishes epoch 15 with another root first: the pool must not claim it as its own.
    const alice = await keypairFromUri('//Alice');
    await contract.publishEpoch({ epoch: 15, root: `0x${'22'.repeat(32)}`, numOfLeaves: 1, totalRao: 1n, uri: 'x' }, alice);
    coordinator.snapshot = snapshotOf([[hk['b'], 1]]);
    expect(await epochs.rollover(15)).toMatchObject({ rollover: 'stored', publication: 'failed' });
    const status = await pool.client.send<{ status: string; payout: { publication: { pending_epoch: number; attempts: number; last_error: string } } }>('GET', '/status');
    expect(status.body.status).toBe('degraded');
    expect(status.body.payout.publication).toMatchObject({ pending_epoch: 15, attempts: 1 });
    expect(status.body.payout.publication.last_error).toContain('epoch_exists');
    expect((await pool.app.get(EpochPublisher).publish(15)) satisfies string).toBe('failed');
    expect(((await pool.db.dataSource.query(`SELECT publish_attempts FROM epochs WHERE epoch = 15`)) as { publish_attempts: number }[])[0].publish_attempts).toBe(2);

    // A second process on the same database and chain, whose contract opens claims 1000 blocks after publication.
    const late = await startSibling(pool, { DEV_CLAIM_CHALLENGE_BLOCKS: '1000', CLAIM_SIMULATION: 'true', PUBLISHER_SECRET_URI: '//Alice', COORDINATOR_URL: coordinator.url, DEV_CHAIN_BLOCK_TIME_MS: '3600000' });
    try {
      coordinator.snapshot = snapshotOf([[hk['c'], 1]]);
      expect(await late.app.get(EpochsService).rollover(16)).toMatchObject({ rollover: 'stored', publication: 'published' });
      const pkg = (await pool.client.send<ClaimPackage>('GET', `/claims/epoch/proof/${hk['c']}`)).body;
      const early = await new PoolClient(late.url).send<ErrorBody>('POST', '/claims/epoch/claim', pkg);
      expect([early.status, early.body.detail.error]).toEqual([409, 'claims_not_open']);
    } finally {
      await late.app.close();
    }
  }, 60_000);

  it('publishes on re-run an epoch stored by a process that stopped before publishing (one epoch, its stored root on chain)', async () => {
    // A replica without the publisher key stands for a process killed between the store and the publication.
    const stopped = await startSibling(pool, { COORDINATOR_URL: coordinator.url, DEV_CHAIN_BLOCK_TIME_MS: '3600000' });
    try {
      coordinator.snapshot = snapshotOf([[hk['b'], 1]]);
      expect(await stopped.app.get(EpochsService).rollover(17)).toEqual({ epoch: 17, rollover: 'stored', publication: 'publication_off' });
    } finally {
      await stopped.app.close();
    }
    const stored = ((await pool.db.dataSource.query(`SELECT root, publication FROM epochs WHERE epoch = 17`)) as { root: string; publication: string }[])[0];
    expect(stored.publication).toBe('pending');
    coordinator.snapshot = snapshotOf([[hk['c'], 5]]);
    expect(await epochs.rollover(17)).toEqual({ epoch: 17, rollover: 'existed', publication: 'published' });
    expect(await epochCount(17)).toBe(1);
    expect((await contract.epochInfo(17))?.root).toBe(stored.root);
  }, 60_000);

  it('adds the local competition from reputation earned since the previous epoch, for miners with enough in-consensus evaluations', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const rows = (await pool.db.dataSource.query(
        `INSERT INTO algorithms (task_type, algorithm_dsl, dsl_hash, input_dim, parent_ids, bar_parent_ids, source, status) VALUES ('cifar10_binary', $1, $1, 16, '{}', '{}', 'seed', 'pending') RETURNING id`,
        [`local-${i}`],
      )) as { id: number }[];
      ids.push(rows[0].id);
    }
    // a: three in-consensus evaluations (+3); b: two (+2), below POOL_MIN_REWARD_ACTIVITY = 3.
    for (const id of ids) await pool.db.dataSource.query(`INSERT INTO reputation_events (miner_hotkey, kind, algorithm_id, amount) VALUES ($1, 'evaluation_in_consensus', $2, 1)`, [hk['a'], id]);
    for (const id of ids.slice(0, 2)) await pool.db.dataSource.query(`INSERT INTO reputation_events (miner_hotkey, kind, algorithm_id, amount) VALUES ($1, 'evaluation_in_consensus', $2, 1)`, [hk['b'], id]);
    coordinator.snapshot = snapshotOf([[hk['c'], 1]], { enabled: true, weight: 1, target_pool_id: 'main', reward_scope: 'competition_only' });

    expect((await epochs.rollover(20)).rollover).toBe('stored');
    const first = JSON.parse(await (await fetch(`${pool.url}/claims/epoch/20/allocation`)).text()) as { entries: { hotkey: string; units: string; competitions: { slug: string; units: string }[] }[] };
    const units = (doc: typeof first, who: string) => doc.entries.find((e) => e.hotkey === who);
    // main: alpha (1) and local (1) → 500 each.
    expect(units(first, hk['a'])).toMatchObject({ units: '500', competitions: [{ slug: 'local', units: '500' }] });
    expect(units(first, hk['b'])).toMatchObject({ units: '0' });
    expect(units(first, hk['c'])).toMatchObject({ units: '500' });

    // Nothing new earned since epoch 20: local has no scored miner and gives its share back to its pool.
    expect((await epochs.rollover(21)).rollover).toBe('stored');
    const second = JSON.parse(await (await fetch(`${pool.url}/claims/epoch/21/allocation`)).text()) as typeof first;
    expect(units(second, hk['a'])).toMatchObject({ units: '0' });
    expect(units(second, hk['c'])).toMatchObject({ units: '1000' });
  }, 60_000);

  it('fails the rollover loudly on a snapshot the contract refuses or with a miner it cannot pay: no epoch, the reason in /status and pool_snapshots_refused_total', async () => {
    const refusedBefore = metricValue(await scrapeMetrics(pool.url), 'pool_snapshots_refused_total') ?? 0;
    const withMiners = (miners: unknown[]) => {
      const snapshot = snapshotOf([]) as { competitions: Record<string, unknown>[] };
      return { ...snapshot, competitions: [{ ...snapshot.competitions[0], miners }] };
    };
    const status = async () => (await pool.client.send<{ payout: { snapshot: { unavailable_window: number; last_error: string } } }>('GET', '/status')).body.payout.snapshot;

    // The contract's own check (`@rcs/client`): a score must be > 0.
    coordinator.snapshot = withMiners([{ miner_hotkey: hk['a'], score: 1 }, { miner_hotkey: hk['b'], score: 0 }]);
    await expect(epochs.rollover(22)).rejects.toMatchObject({ name: 'SnapshotRefusedError', problems: ['competitions[0].miners[1] must be {miner_hotkey: string, score: number > 0}'] });
    expect(await epochCount(22)).toBe(0);
    expect(await status()).toMatchObject({ unavailable_window: 22, last_error: expect.stringContaining('reward snapshot refused') });

    // A hotkey the pool cannot pay is refused too, never dropped from the split.
    coordinator.snapshot = withMiners([{ miner_hotkey: hk['a'], score: 1 }, { miner_hotkey: 'not-an-address', score: 2 }]);
    await expect(epochs.rollover(22)).rejects.toBeInstanceOf(SnapshotRefusedError);
    expect(await epochCount(22)).toBe(0);
    expect((await status()).last_error).toContain('competitions[0].miners[1].miner_hotkey is not an SS58 address');
    expect(metricValue(await scrapeMetrics(pool.url), 'pool_snapshots_refused_total')).toBe(refusedBefore + 2);

    // The coordinator mended: the same window rolls over.
    coordinator.snapshot = snapshotOf([[hk['a'], 1]]);
    expect(await epochs.rollover(22)).toMatchObject({ rollover: 'stored', publication: 'published' });
  }, 60_000);

  it('names the reward snapshots of every epoch from the oldest holding unclaimed value on, for the coordinator to keep (DECISIONS §16)', async () => {
    const sql = <R>(text: string, params: unknown[] = []) => pool.db.dataSource.query(text, params) as Promise<R[]>;
    const retained = async () => (await pool.client.send<{ oldest_unclaimed_epoch: number | null; snapshot_sha256: string[] }>('GET', '/claims/retained-snapshots')).body;
    const snapshotsFrom = async (epoch: number) =>
      (await sql<{ sha256: string }>(`SELECT DISTINCT s.sha256 FROM epochs e JOIN reward_snapshots s ON s.id = e.snapshot_id WHERE e.epoch >= $1 ORDER BY 1`, [epoch])).map((r) => r.sha256);
    // b has been owed since epoch 10 (and d, with no recipient, cannot claim at all).
    expect(await retained()).toEqual({ oldest_unclaimed_epoch: 10, snapshot_sha256: await snapshotsFrom(10) });
    // Every hotkey paid all epoch 12 gives it (the ledger rows its claims would write): only later epochs hold value still owed.
    await sql(
      `INSERT INTO simulated_claims (epoch, hotkey, recipient_coldkey, amount, paid, block)
       SELECT 12, a.hotkey, $1, a.cumulative, a.cumulative - COALESCE(p.paid, 0), 1
         FROM epoch_allocations a LEFT JOIN (SELECT hotkey, sum(paid) AS paid FROM simulated_claims GROUP BY hotkey) p ON p.hotkey = a.hotkey
        WHERE a.epoch = 12 AND a.cumulative > COALESCE(p.paid, 0)`,
      [cold['a']],
    );
    const [{ oldest }] = await sql<{ oldest: number }>(`SELECT min(epoch) AS oldest FROM epoch_allocations WHERE epoch > 12 AND units > 0`);
    const after = await retained();
    expect(after).toEqual({ oldest_unclaimed_epoch: oldest, snapshot_sha256: await snapshotsFrom(oldest) });
    expect(after.snapshot_sha256.length).toBeLessThan((await snapshotsFrom(10)).length);
  }, 60_000);

  it('does not register the simulation routes without CLAIM_SIMULATION, and serves nothing under the prefix with CLAIMS_ENABLED=false', async () => {
    const plain = await startSibling(pool, { COORDINATOR_URL: coordinator.url });
    const off = await startSibling(pool, { COORDINATOR_URL: coordinator.url, CLAIMS_ENABLED: 'false' });
    try {
      expect((await new PoolClient(plain.url).send('POST', '/claims/epoch/claim', {})).status).toBe(404);
      expect((await new PoolClient(plain.url).send('GET', '/claims/ledger')).status).toBe(404);
      expect((await new PoolClient(plain.url).send('GET', '/claims/health')).status).toBe(200);
      expect((await new PoolClient(off.url).send('GET', '/claims/epochs')).status).toBe(404);
    } finally {
      await plain.app.close();
      await off.app.close();
    }
  }, 60_000);
});

/** Another pool process on the same database and Redis prefix (the same stack), with its own settings. */
async function startSibling(pool: PoolHarness, env: NodeJS.ProcessEnv): Promise<{ app: NestFastifyApplication; url: string }> {
  const config = loadPoolServiceConfig({
    CHAIN: 'dev',
    NETUID: '1',
    ...poolStoresEnv(pool.db, pool.redis),
    LOG_LEVEL: 'silent',
    POOL_EPOCH_CHECK_SECONDS: '3600',
    POOL_SNAPSHOT_ATTEMPTS: '1',
    POOL_EPOCH_BUDGET_UNITS: BUDGET.toString(),
    ...env,
  });
  const app = await createPoolApp(config);
  return { app, url: await listen(app, 0, '127.0.0.1') };
}
