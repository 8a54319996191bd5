import { createHash } from 'node:crypto';
import { RewardSnapshotService } from '../src/rewards/reward-snapshot.service';
import { CoordinatorHarness, startCoordinator } from './harness';
import { insertRankedTask } from './support/best-results-rows';
import { expectStatus, TestClient } from './submissions-fixtures';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** Every served snapshot stays readable by its SHA-256 (DECISIONS §16), so a payout verifier can check the one an epoch names. */
describe('reward snapshot history', () => {
  let h: CoordinatorHarness;
  let api: TestClient;

  beforeAll(async () => {
    h = await startCoordinator({ SNAPSHOT_CHECK_INTERVAL_SECONDS: '3600', SCHEDULE_CHECK_INTERVAL_SECONDS: '3600', SNAPSHOT_HISTORY_DAYS: '30' });
    api = new TestClient(h);
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
