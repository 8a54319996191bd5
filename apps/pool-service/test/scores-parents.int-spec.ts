import { BtAuthSigner } from '@rcs/auth';
import { PoolBatchDto, SotaDto } from '@rcs/contracts';
import { openDatabase } from '@rcs/persistence';
import { createScratchDatabase } from '@rcs/testing';
import { POOL_ENTITIES, POOL_MIGRATIONS } from '../src/database';
import { ErrorBody, expectStatus, ItemsBody, PoolClient, PoolHarness, signer, startPool } from './support/harness';
import { algorithmRow, evaluateInTurn, freshMiner, lease, seed } from './support/mining';

/** Finite scores, parents of the assignment, duplicates that never strand a miner (DECISIONS.md §11). */
describe('pool scores, parents and duplicate evolutions (DECISIONS.md §11)', () => {
  let h: PoolHarness;
  let api: PoolClient;
  let validator: BtAuthSigner;

  const batch = async (miner: BtAuthSigner, kind: 'evolve' | 'evaluate'): Promise<PoolBatchDto> => {
    const reply = await api.signed<PoolBatchDto>(miner, 'POST', '/api/v1/tasks/request', { task_type: kind });
    expectStatus(reply, 200);
    return reply.body;
  };
  const bonusOf = async (algorithmId: number): Promise<number> =>
    ((await h.db.dataSource.query(`SELECT count(*)::int AS n FROM reputation_events WHERE algorithm_id = $1 AND kind = 'evolution_improved'`, [algorithmId])) as {
      n: number;
    }[])[0].n;

  beforeAll(async () => {
    validator = await signer('//Pool//scores//validator');
    h = await startPool({ POOL_DEV_WINDOWS: 'true', VALIDATOR_HOTKEYS: validator.hotkey });
    api = new PoolClient(h.url);
    // Evolve batches hand out the default task type's algorithms.
    await seed(h, 'cifar10_binary', ['s1 = dot(v0, v1)', 's1 = norm(v0)']);
  });

  afterAll(() => h.close());

  describe('scores', () => {
    it('refuses scores outside POOL_SCORE_MIN..POOL_SCORE_MAX (0..1) with 422 score_out_of_range, recording none of the batch', async () => {
      const [id] = await seed(h, 'bounds_a', ['bounds = 1']);
      const miner = await freshMiner();
      const issued = await lease(api, miner, 'bounds_a');
      for (const score of [1e308, 1.0000001, -0.5, -1e308]) {
        const refused = await api.signed<ItemsBody>(miner, 'POST', `/api/v1/tasks/${issued.lease_id}/submit_lease`, { evaluations: [{ algorithm_id: id, score }], evolutions: [] });
        expect(refused.status).toBe(422);
        expect(refused.body.detail).toEqual([expect.objectContaining({ type: 'score_out_of_range', loc: ['body', 'evaluations', 0, 'score'], input: score })]);
      }
      expect(await algorithmRow(h, id)).toEqual({ status: 'pending', consensus_score: null, evaluations_count: 0 });
      expectStatus(await api.signed(miner, 'POST', `/api/v1/tasks/${issued.lease_id}/submit_lease`, { evaluations: [{ algorithm_id: id, score: 1 }], evolutions: [] }), 200);
    });

    it('keeps the consensus of 1, 1e308, 1e308, 1e308 finite where the bounds allow them, and the SOTA with it', async () => {
      const wide = await startPool({ POOL_DEV_WINDOWS: 'true', VALIDATOR_HOTKEYS: validator.hotkey, POOL_SCORE_MAX: '1e308' });
      try {
        const wideApi = new PoolClient(wide.url);
        const [id] = await seed(wide, 'huge', ['huge = 1']);
        await evaluateInTurn(wideApi, 'huge', id, [1, 1e308, 1e308, 1e308]);
        // Before the fix: (1e308 + 1e308) / 2 = Infinity, stored as scored, `score: null` on the wire.
        expect(await algorithmRow(wide, id)).toEqual({ status: 'scored', consensus_score: 1e308, evaluations_count: 4 });
        const pending = await wideApi.signed<{ id: number; score: number }[]>(validator, 'GET', '/api/v1/results/?task_type=huge&status=pending');
        expect(pending.body).toEqual([expect.objectContaining({ score: 1e308 })]);
        expectStatus(await wideApi.signed(validator, 'POST', `/api/v1/results/verify/${pending.body[0].id}`), 200);
        expect((await wideApi.send<SotaDto>('GET', '/api/v1/results/sota?task_type=huge')).body.sota_threshold).toBe(1e308);
      } finally {
        await wide.close();
      }
    });

    it('lets the database refuse a non-finite consensus score, result score or threshold', async () => {
      const [id] = await seed(h, 'finite_db', ['finite = 1']);
      for (const sql of [
        `UPDATE algorithms SET status = 'scored', consensus_score = 'Infinity' WHERE id = ${id}`,
        `UPDATE algorithms SET status = 'scored', consensus_score = 'NaN' WHERE id = ${id}`,
        `INSERT INTO results (algorithm_id, task_type, score, evaluations, status) VALUES (${id}, 'finite_db', '-Infinity', 3, 'pending')`,
        `INSERT INTO sota_thresholds (task_type, threshold) VALUES ('finite_db', 'Infinity')`,
      ]) {
        await expect(h.db.dataSource.query(sql)).rejects.toThrow(/violates check constraint "(algorithms_score_finite_check|results_score_finite_check|sota_thresholds_finite_check)"/);
      }
    });

    it('repairs a stored non-finite threshold when migrating: the best finite verified result, else 0', async () => {
      const scratch = await createScratchDatabase('pool_finite_repair');
      try {
        const before = await openDatabase({ url: scratch.url, embeddedDir: '', entities: [], migrations: POOL_MIGRATIONS.slice(0, 2), applicationName: 'pool-repair-test' });
        try {
          await before.dataSource.query(`INSERT INTO miners (hotkey) VALUES ('m')`);
          await before.dataSource.query(
            `INSERT INTO algorithms (id, task_type, algorithm_dsl, dsl_hash, input_dim, parent_ids, author_hotkey, source, status, consensus_score)
             VALUES (1, 'frozen', 'a', 'a', 16, '{}', 'm', 'evolution', 'scored', 0.7), (2, 'frozen', 'b', 'b', 16, '{}', 'm', 'evolution', 'scored', 'Infinity'),
                    (3, 'empty', 'c', 'c', 16, '{}', 'm', 'evolution', 'scored', 'Infinity')`,
          );
          await before.dataSource.query(
            `INSERT INTO results (id, algorithm_id, task_type, miner_hotkey, score, evaluations, status, verified_by, verified_at)
             VALUES (1, 1, 'frozen', 'm', 0.7, 3, 'verified', 'v', now()), (2, 2, 'frozen', 'm', 'Infinity', 4, 'verified', 'v', now()),
                    (3, 3, 'empty', 'm', 'Infinity', 4, 'verified', 'v', now())`,
          );
          await before.dataSource.query(`INSERT INTO sota_thresholds (task_type, threshold, result_id, updated_at) VALUES ('frozen', 'Infinity', 2, now()), ('empty', 'Infinity', 3, now())`);
        } finally {
          await before.close();
        }
        const after = await openDatabase({ url: scratch.url, embeddedDir: '', entities: POOL_ENTITIES, migrations: POOL_MIGRATIONS, applicationName: 'pool-repair-test' });
        try {
          expect(await after.dataSource.query(`SELECT task_type, threshold, result_id FROM sota_thresholds ORDER BY task_type`)).toEqual([
            { task_type: 'empty', threshold: 0, result_id: null },
            { task_type: 'frozen', threshold: 0.7, result_id: 1 },
          ]);
          expect(await after.dataSource.query(`SELECT id, score FROM results ORDER BY id`)).toEqual([{ id: 1, score: 0.7 }]);
          expect(await after.dataSource.query(`SELECT id, status, consensus_score FROM algorithms ORDER BY id`)).toEqual([
            { id: 1, status: 'scored', consensus_score: 0.7 },
            { id: 2, status: 'rejected', consensus_score: null },
            { id: 3, status: 'rejected', consensus_score: null },
          ]);
        } finally {
          await after.close();
        }
      } finally {
        await scratch.drop();
      }
    });
  });

  describe('parents', () => {
    it('refuses parents that are not algorithms of the batch or lease with 422 parent_not_assigned', async () => {
      const miner = await freshMiner();
      const issued = await batch(miner, 'evolve');
      const invented = await api.signed<ItemsBody>(miner, 'POST', `/api/v1/tasks/${issued.batch_id}/submit_evolution`, {
        evolved_function: 'invented = 1',
        parent_functions: [2147483000],
      });
      expect(invented.status).toBe(422);
      expect(invented.body.detail).toEqual([expect.objectContaining({ type: 'parent_not_assigned', loc: ['body', 'parent_functions', 0], input: 2147483000 })]);
      // The batch is still the miner's to submit.
      const real = await api.signed<{ status: string }>(miner, 'POST', `/api/v1/tasks/${issued.batch_id}/submit_evolution`, {
        evolved_function: 'invented = 2',
        parent_functions: [{ id: issued.algorithms[0].id }],
      });
      expect([real.status, real.body.status]).toEqual([200, 'accepted']);

      await seed(h, 'parents_lease', ['p = 1', 'p = 2']);
      const leaser = await freshMiner();
      const leased = await lease(api, leaser, 'parents_lease');
      const refused = await api.signed<ItemsBody>(leaser, 'POST', `/api/v1/tasks/${leased.lease_id}/submit_lease`, {
        evaluations: [],
        evolutions: [{ parent_algorithm_ids: [leased.seed_algorithms[0].id, 999999], algorithm_dsl: 'p = 3' }],
      });
      expect(refused.status).toBe(422);
      expect(refused.body.detail).toEqual([expect.objectContaining({ type: 'parent_not_assigned', loc: ['body', 'evolutions', 0, 'parent_algorithm_ids', 1], input: 999999 })]);
    });

    it('judges the improvement bonus against the best parent the assignment offered, whichever parents the author names', async () => {
      const [strong, weak] = await seed(h, 'bar', ['bar = strong', 'bar = weak']);
      await evaluateInTurn(api, 'bar', strong, [0.8, 0.8, 0.8]);
      await evaluateInTurn(api, 'bar', weak, [0.3, 0.3, 0.3]);
      // Two authors evolve from one lease's seeds (both scored): one names only the weak parent, one names none.
      const evolved: number[] = [];
      for (const [dsl, named] of [['bar = child of weak', [weak]], ['bar = child of all', []]] as const) {
        const author = await freshMiner('author');
        const leased = await lease(api, author, 'bar');
        expect(leased.seed_algorithms.map((a) => a.id)).toEqual([strong, weak]);
        const reply = await api.signed<{ created_algorithm_ids: number[] }>(author, 'POST', `/api/v1/tasks/${leased.lease_id}/submit_lease`, {
          evaluations: [],
          evolutions: [{ parent_algorithm_ids: named, algorithm_dsl: dsl }],
        });
        expectStatus(reply, 200);
        evolved.push(reply.body.created_algorithm_ids[0]);
      }
      // Both score 0.5: better than the weak parent, worse than the strong one the lease offered. Before the fix
      // the author naming only the weak parent earned +2.
      for (const id of evolved) await evaluateInTurn(api, 'bar', id, [0.5, 0.5, 0.5]);
      expect(await Promise.all(evolved.map((id) => algorithmRow(h, id)))).toEqual(evolved.map(() => expect.objectContaining({ status: 'scored', consensus_score: 0.5 })));
      expect(await Promise.all(evolved.map(bonusOf))).toEqual([0, 0]);
    });
  });

  describe('duplicate evolutions', () => {
    it('answers a duplicate evolution 200 "duplicate" with the existing id and closes the batch, so the miner is never stranded', async () => {
      const miner = await freshMiner();
      const issued = await batch(miner, 'evolve');
      const original = await api.signed<{ algorithm_id: number }>(miner, 'POST', `/api/v1/tasks/${issued.batch_id}/submit_evolution`, { evolved_function: 'dup = dot(v0, v1)\ndup2 = dup * 0.5' });
      expectStatus(original, 200);
      const again = await batch(miner, 'evolve');
      const duplicate = await api.signed<{ status: string; algorithm_id: number }>(miner, 'POST', `/api/v1/tasks/${again.batch_id}/submit_evolution`, {
        evolved_function: '# same thing\ndup = dot(v0, v1)\n\n  dup2 = dup * 0.5  # halved',
      });
      expect([duplicate.status, duplicate.body]).toEqual([200, { status: 'duplicate', algorithm_id: original.body.algorithm_id }]);
      // Before the fix: 409, the batch stayed active and every request answered 400 "Miner already has active task".
      expectStatus(await api.signed(miner, 'POST', '/api/v1/tasks/request', { task_type: 'evolve' }), 200);
      expect(await h.db.dataSource.query(`SELECT count(*)::int AS n FROM algorithms WHERE author_hotkey = $1`, [miner.hotkey])).toEqual([{ n: 1 }]);
    });

    it('keeps a lease’s evaluations when an evolution is a duplicate, and lists it in duplicate_algorithm_ids', async () => {
      const [existing, other] = await seed(h, 'dup_lease', ['dl = 1', 'dl = 2']);
      const miner = await freshMiner();
      const leased = await lease(api, miner, 'dup_lease');
      const reply = await api.signed<Record<string, unknown>>(miner, 'POST', `/api/v1/tasks/${leased.lease_id}/submit_lease`, {
        evaluations: [{ algorithm_id: other, score: 0.4 }],
        evolutions: [{ parent_algorithm_ids: [], algorithm_dsl: 'dl = 1  # a copy of the seed' }],
      });
      expectStatus(reply, 200);
      expect(reply.body).toEqual({ status: 'accepted', recorded_evaluations: 1, created_algorithm_ids: [], duplicate_algorithm_ids: [existing] });
      expect(await algorithmRow(h, other)).toMatchObject({ evaluations_count: 1 });
      const next = await api.signed<ErrorBody>(miner, 'POST', '/api/v1/tasks/request', { task_type: 'evolve' });
      expect(next.status).toBe(200);
    });
  });
});
