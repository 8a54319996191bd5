import { DataSource } from 'typeorm';
import { AcceptedRewardFloorMode, CompetitionMode, MetricDirection } from '@rcs/contracts';
import { defaultRewardPolicy, RewardPolicyBody } from '../src/rewards/reward-policy.defaults';
import { buildRewardSnapshot } from '../src/rewards/reward-snapshot.builder';
import { RewardSnapshotRepository } from '../src/rewards/reward-snapshot.repository';
import { CoordinatorHarness, startCoordinator } from './harness';
import { insertPendingSubmission, insertRankedTask } from './support/best-results-rows';
import { expectStatus, TestClient } from './submissions-fixtures';
import { quietRewards } from './support/quiet-rewards';

/**
 * The snapshot built from real rows (set-based reads, cursor batches, decision order by decided_at
 * then id) matches the numbers worked out by hand, and the route serves the cached bytes.
 * e^-0.5 = 0.60653065971263…, e^-1 = 0.36787944117144…, e^-2 = 0.13533528323661…
 */

const T = '2025-01-11T00:00:00.000Z';

describe('reward snapshot', () => {
  let h: CoordinatorHarness;
  let api: TestClient;

  beforeAll(async () => {
    // These tests decide when the snapshot is rebuilt.
    h = await startCoordinator({ SNAPSHOT_CHECK_INTERVAL_SECONDS: '3600', SCHEDULE_CHECK_INTERVAL_SECONDS: '3600' });
    api = new TestClient(h);
    await quietRewards(h);
    await sql('DELETE FROM reward_snapshots');
  });

  afterAll(async () => {
    await h.close();
  });

  const sql = <R = unknown>(text: string, params: unknown[] = []): Promise<R[]> => h.db.dataSource.query(text, params);

  describe('GET /api/v1/reward-snapshot', () => {
    it('builds the first snapshot on demand, stores it and serves the stored bytes with their generation time', async () => {
      expect(await sql('SELECT id FROM reward_snapshots')).toEqual([]);
      const before = Date.now();
      const reply = await api.anonymous<{ generated_at: string; competitions: unknown[] }>('GET', '/api/v1/reward-snapshot');
      expectStatus(reply, 200);
      expect(reply.headers.get('content-type')).toBe('application/json; charset=utf-8');
      const [stored] = await sql<{ body: string; generated_at: Date }>('SELECT body, generated_at FROM reward_snapshots');
      expect(reply.text).toBe(stored.body);
      expect(reply.headers.get('x-snapshot-generated-at')).toBe(reply.body.generated_at);
      expect(stored.generated_at.toISOString()).toBe(reply.body.generated_at);
      expect(Date.parse(reply.body.generated_at)).toBeGreaterThanOrEqual(before - 1000);
      expect(reply.body.competitions).toEqual([]);
    });

    it('keeps serving the cached snapshot until a rebuild replaces it', async () => {
      const first = await api.anonymous('GET', '/api/v1/reward-snapshot');
      await insertRankedTask(h.db);
      const second = await api.anonymous('GET', '/api/v1/reward-snapshot');
      expect(second.text).toBe(first.text);
      expect(second.headers.get('x-snapshot-generated-at')).toBe(first.headers.get('x-snapshot-generated-at'));
      await sql('DELETE FROM tasks');
    });

    it('documents the route with the RewardSnapshotDto schema and the generation header', async () => {
      const document = (await (await fetch(`${h.url}/openapi.json`)).json()) as {
        paths: Record<string, { get?: { responses: Record<string, { headers?: object; content?: { 'application/json'?: { schema?: { $ref?: string } } } }> } }>;
      };
      const ok = document.paths['/api/v1/reward-snapshot'].get?.responses['200'];
      expect(ok?.content?.['application/json']?.schema?.$ref).toBe('#/components/schemas/RewardSnapshotDto');
      expect(Object.keys(ok?.headers ?? {})).toEqual(['X-Snapshot-Generated-At']);
    });
  });

  describe('built from the database', () => {
    const policy: RewardPolicyBody = {
      ...defaultRewardPolicy(),
      competition_defaults: {
        ...defaultRewardPolicy().competition_defaults,
        accepted_reward_floor_mode: AcceptedRewardFloorMode.Disabled,
        accepted_reward_metric_tolerance: 0.01,
      },
    };
    let standard: string;
    let centerless: string;
    let closedScored: string;
    let tieWinner: string;

    /** An accepted result of `miner` decided at T minus `age` (a Postgres interval); the submission id. */
    async function accepted(taskId: string, miner: string, metric: number, age: string, fields: { implementedSubmissionId?: string } = {}): Promise<string> {
      const id = await insertPendingSubmission(h.db, { taskId, minerHotkey: miner, proposedIdea: 'An idea.', ...fields });
      await sql(
        `UPDATE submissions SET status = 'accepted', verified_metric_value = $2, decided_at = timestamptz '${T}' - $3::interval WHERE id = $1`,
        [id, metric, age],
      );
      return id;
    }

    async function best(taskId: string, submissionId: string, miner: string, metric: number, age: string): Promise<void> {
      await sql(
        `INSERT INTO best_results (task_id, submission_id, metric_name, metric_direction, metric_value, miner_hotkey, updated_at)
         VALUES ($1, $2, 'score', 'maximize', $3, $4, timestamptz '${T}' - $5::interval)`,
        [taskId, submissionId, metric, miner, age],
      );
    }

    beforeAll(async () => {
      standard = await insertRankedTask(h.db, { direction: MetricDirection.Maximize });
      await accepted(standard, 'alice', 0.5, '10 days');
      await accepted(standard, 'bob', 0.505, '0'); // within 0.01 of alice's earlier 0.5: a duplicate
      const carol = await accepted(standard, 'carol', 0.52, '0');
      await best(standard, carol, 'carol', 0.52, '5 days');

      centerless = await insertRankedTask(h.db, { mode: CompetitionMode.Centerless });
      const idea = await accepted(centerless, 'dave', 0.3, '20 days');
      const implementation = await accepted(centerless, 'eve', 1.0, '0', { implementedSubmissionId: idea });
      await best(centerless, implementation, 'eve', 1.0, '0');
      await sql(
        `INSERT INTO idea_rewards (task_id, improved_submission_id, idea_submission_id, proposer_hotkey, implementer_hotkey, metric_name,
                                   previous_metric_value, improved_metric_value, improvement_amount, created_at)
         VALUES ($1, $2, $3, 'dave', 'eve', 'score', 0.3, 1.0, 0.7, timestamptz '${T}' - interval '10 days')`,
        [centerless, implementation, idea],
      );

      // Same decision time, same metric: the smaller submission id is the earlier one.
      closedScored = await insertRankedTask(h.db);
      const ferdie = await accepted(closedScored, 'ferdie', 0.7, '10 days');
      const george = await accepted(closedScored, 'george', 0.7, '10 days');
      tieWinner = ferdie < george ? 'ferdie' : 'george';
      const closedEmpty = await insertRankedTask(h.db);

      await sql(`UPDATE tasks SET task_state = 'closed', closed_at = now() WHERE id IN ($1, $2)`, [closedScored, closedEmpty]);
      for (const [id, slug] of [
        [standard, 'b-standard'],
        [centerless, 'a-centerless'],
        [closedScored, 'c-closed-scored'],
        [closedEmpty, 'd-closed-empty'],
      ]) {
        await sql('UPDATE tasks SET slug = $2, title = $2 WHERE id = $1', [id, slug]);
      }
    });

    function build(batchSize?: number): Promise<{ generatedAt: Date; body: string }> {
      return buildRewardSnapshot(h.app.get(DataSource), h.app.get(RewardSnapshotRepository), () => Promise.resolve(policy), { scoreEmaDays: 10, at: new Date(T), batchSize });
    }

    function entry(id: string, slug: string, mode: string, miners: string): string {
      return (
        `{"competition_id":"${id}","slug":"${slug}","title":"${slug}","competition_mode":"${mode}","weight":1,"target_pool_id":"main",` +
        '"reward_scope":"competition_only","scoring_mode":"accepted_plus_best","accepted_reward_metric_tolerance":0.01,' +
        '"accepted_reward_floor_mode":"disabled","accepted_reward_floor_value":null,"accepted_reward_floor_stddevs":2,' +
        `"accepted_reward_floor_min_samples":3,"miners":${miners}}`
      );
    }

    it('scores every competition exactly as worked out by hand', async () => {
      const { generatedAt, body } = await build();
      expect(generatedAt.toISOString()).toBe(T);
      expect(body).toBe(
        `{"generated_at":"${T}","score_ema_days":10,"competition_count":3,"reward_policy":${JSON.stringify(policy)},"competitions":[` +
          // eve: 1 (accepted now) + 1 (best since now) + 0.5·e^-1 (idea reward 10 days ago); dave: e^-2 (accepted 20 days ago) + 0.5·e^-1.
          entry(centerless, 'a-centerless', 'centerless', '[{"miner_hotkey":"eve","score":2.18393972059},{"miner_hotkey":"dave","score":0.319275003822}]') +
          ',' +
          // carol: 1 (accepted now) + e^-0.5 (best for 5 days); alice: e^-1; bob's 0.505 is a duplicate of alice's 0.5.
          entry(standard, 'b-standard', 'standard', '[{"miner_hotkey":"carol","score":1.60653065971},{"miner_hotkey":"alice","score":0.367879441171}]') +
          ',' +
          // Closed but still scored; the closed task without scores is left out.
          entry(closedScored, 'c-closed-scored', 'standard', `[{"miner_hotkey":"${tieWinner}","score":0.367879441171}]`) +
          ']}',
      );
    });

    it('gives the same bytes whatever the cursor batch size', async () => {
      const whole = (await build()).body;
      expect((await build(1)).body).toBe(whole);
      expect((await build(2)).body).toBe(whole);
      expect((await build(3)).body).toBe(whole);
    });
  });
});
