import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RewardSnapshotService } from '../src/rewards/reward-snapshot.service';
import { CoordinatorHarness, startCoordinator } from './harness';
import { insertRankedTask } from './support/best-results-rows';
import { quietRewards } from './support/quiet-rewards';
import { expectStatus, TestClient } from './submissions-fixtures';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** Every served snapshot stays readable by its SHA-256 (DECISIONS §16), so a payout verifier can check the one an epoch names. */
describe('reward snapshot history', () => {
  let h: CoordinatorHarness;
  let api: TestClient;

  beforeAll(async () => {
    h = await startCoordinator({ SNAPSHOT_CHECK_INTERVAL_SECONDS: '3600', SCHEDULE_CHECK_INTERVAL_SECONDS: '3600', SNAPSHOT_HISTORY_DAYS: '30' });
    api = new TestClient(h);
    // These tests decide when the snapshot is rebuilt: the boot's check must not land between a rebuild and its read.
    await quietRewards(h);
  });

  afterAll(async () => {
    await h.close();
  });

  const sql = <R = unknown>(text: string, params: unknown[] = []): Promise<R[]> => h.db.dataSource.query(text, params);

  it('serves a replaced snapshot byte for byte by the SHA-256 of what GET /reward-snapshot served, immutable', async () => {
    const snapshots = h.app.get(RewardSnapshotService);
    const first = await snapshots.rebuild();
    const served = await api.anonymous('GET', '/api/v1/reward-snapshot');
    expect(served.text).toBe(first.body);
    await insertRankedTask(h.db);
    const second = await snapshots.rebuild();
    expect(second.body).not.toBe(first.body);

    const old = await api.anonymous<{ generated_at: string }>('GET', `/api/v1/reward-snapshots/${sha256(served.text).toUpperCase()}`);
    expectStatus(old, 200);
    expect(old.text).toBe(first.body);
    expect(old.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(old.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect((await api.anonymous('GET', `/api/v1/reward-snapshots/${sha256(second.body)}`)).text).toBe(second.body);
    const [kept] = await sql<{ replaced_at: Date | null }>('SELECT replaced_at FROM reward_snapshot_history WHERE sha256 = $1', [sha256(first.body)]);
    expect(kept.replaced_at).not.toBeNull();
  });

  it('answers 404 reward_snapshot_not_found for a SHA-256 it never served or a malformed one', async () => {
    for (const name of ['0'.repeat(64), 'not-a-hash']) {
      const reply = await api.anonymous<{ detail: { error: string } }>('GET', `/api/v1/reward-snapshots/${name}`);
      expectStatus(reply, 404);
      expect(reply.body.detail.error).toBe('reward_snapshot_not_found');
    }
  });

  it('prunes a snapshot SNAPSHOT_HISTORY_DAYS after a newer one replaced it, and keeps the current one', async () => {
    const snapshots = h.app.get(RewardSnapshotService);
    const current = await snapshots.rebuild();
    await sql(`UPDATE reward_snapshot_history SET replaced_at = now() - interval '31 days' WHERE sha256 <> $1`, [sha256(current.body)]);
    await sql(`UPDATE reward_snapshot_history SET created_at = now() - interval '400 days' WHERE sha256 = $1`, [sha256(current.body)]);
    await sql('DELETE FROM tasks');
    await snapshots.rebuild();
    const rows = await sql<{ sha256: string }>('SELECT sha256 FROM reward_snapshot_history ORDER BY created_at');
    expect(rows.map((r) => r.sha256)).toContain(sha256(current.body));
    expect(rows).toHaveLength(2);
  });
});

/** A stand-in for the pool's `GET /claims/retained-snapshots` over real HTTP: answers `keep`, or 503 while `down`. */
class RetainingPool {
  keep: string[] = [];
  down = false;
  asked = 0;
  private readonly server: Server = createServer((request, response) => {
    this.asked += 1;
    if (this.down || request.url !== '/claims/retained-snapshots') {
      response.writeHead(this.down ? 503 : 404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ oldest_unclaimed_epoch: 1, snapshot_sha256: this.keep }));
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** DECISIONS §16: a snapshot an epoch still holding unclaimed value names is never pruned (the pool at POOL_URL says which). */
describe('reward snapshot history with a pool (POOL_URL)', () => {
  const pool = new RetainingPool();
  let h: CoordinatorHarness;

  beforeAll(async () => {
    const url = await pool.start();
    h = await startCoordinator({ SNAPSHOT_CHECK_INTERVAL_SECONDS: '3600', SCHEDULE_CHECK_INTERVAL_SECONDS: '3600', SNAPSHOT_HISTORY_DAYS: '30', POOL_URL: url });
  });

  afterAll(async () => {
    await h.close();
    await pool.close();
  });

  const sql = <R = unknown>(text: string, params: unknown[] = []): Promise<R[]> => h.db.dataSource.query(text, params);
  const kept = async () => (await sql<{ sha256: string }>('SELECT sha256 FROM reward_snapshot_history ORDER BY sha256')).map((r) => r.sha256);

  it('keeps past SNAPSHOT_HISTORY_DAYS the snapshots the pool names, prunes the others, and prunes nothing while the pool cannot say', async () => {
    const snapshots = h.app.get(RewardSnapshotService);
    const first = sha256((await snapshots.rebuild()).body);
    await insertRankedTask(h.db);
    const second = sha256((await snapshots.rebuild()).body);
    await sql('DELETE FROM tasks');
    const current = sha256((await snapshots.rebuild()).body);
    expect(new Set([first, second, current]).size).toBe(3);
    await sql(`UPDATE reward_snapshot_history SET replaced_at = now() - interval '31 days' WHERE replaced_at IS NOT NULL`);
    const before = await kept();
    expect(before).toEqual(expect.arrayContaining([first, second, current]));

    // The pool cannot answer: nothing is pruned (an unclaimed epoch may name any of them).
    pool.down = true;
    const askedBefore = pool.asked;
    expect(await snapshots.pruneHistory()).toBe(0);
    expect(pool.asked).toBe(askedBefore + 1);
    expect(await kept()).toEqual(before);

    // An unclaimed epoch names the first: it stays past the history; every other replaced one goes.
    pool.down = false;
    pool.keep = [first];
    expect(await snapshots.pruneHistory()).toBe(before.length - 2);
    expect(await kept()).toEqual([first, current].sort());
    const old = await new TestClient(h).anonymous('GET', `/api/v1/reward-snapshots/${first}`);
    expectStatus(old, 200);

    // Its epochs claimed: the pool no longer names it, and it is pruned.
    pool.keep = [];
    expect(await snapshots.pruneHistory()).toBe(1);
    expect(await kept()).toEqual([current]);
  });
});
