import { BtAuthSigner, keypairFromUri } from '@rcs/auth';
import { ClaimDto, PeerEvaluationDto, SubmissionDto, TaskDto } from '@rcs/contracts';
import { CoordinatorHarness, startCoordinator } from './harness';
import { errorOf, expectStatus, itemsOf, ScratchRepo, signerFor, TestClient } from './submissions-fixtures';

/**
 * DECISIONS.md §2 Identity: `X-Hotkey` may spell a key with any SS58 network prefix, and
 * every spelling of one key is one miner: for claims, rate limits, peer evaluations, idea rules and the
 * validator allowlist, and in what is stored and printed (the canonical spelling, prefix 42).
 */
describe('one identity per key, whatever its SS58 spelling', () => {
  let h: CoordinatorHarness;
  let api: TestClient;
  let patch: string;
  /** The validator key; the allowlist names it with prefix 2. */
  let validator: BtAuthSigner;

  /** One signer per spelling of the key of `uri`; `[0]` is the canonical one (prefix 42). */
  const spellings = (uri: string, prefixes = [42, 2, 7, 0]): Promise<BtAuthSigner[]> =>
    Promise.all(prefixes.map(async (prefix) => new BtAuthSigner(await keypairFromUri(uri, prefix))));
  const claimTask = (signer: BtAuthSigner, taskId: string) =>
    api.signed<ClaimDto>(signer, 'POST', `/api/v1/tasks/${taskId}/claim`, { claim_description: 'A spelling test.' });

  beforeAll(async () => {
    validator = await signerFor('//IdentityValidator');
    const allowlisted = (await spellings('//IdentityValidator', [2]))[0];
    h = await startCoordinator({
      VALIDATOR_HOTKEYS: allowlisted.hotkey,
      CLAIM_RATE_LIMIT_MAX: '3',
      SUBMISSION_RATE_LIMIT_MAX: '0',
      LEASE_SWEEP_INTERVAL_SECONDS: '3600',
      CLAIM_SWEEP_INTERVAL_SECONDS: '3600',
    });
    api = new TestClient(h);
    const repo = ScratchRepo.create({ 'src/train.py': 'LR = 0.01\n' });
    patch = repo.diff({ 'src/train.py': 'LR = 0.03\n' });
    repo.remove();
  });

  afterAll(async () => {
    await h.close();
  });

  it('spellings differ, keys do not', async () => {
    const [canonical, ...others] = await spellings('//IdentityMiner0');
    expect(new Set([canonical.hotkey, ...others.map((s) => s.hotkey)]).size).toBe(4);
  });

  it('stores and prints the canonical spelling of the signer', async () => {
    const [canonical, prefix2] = await spellings('//IdentityMiner1');
    const task = await api.createTask();
    const reply = await claimTask(prefix2, task.id);
    expectStatus(reply, 201);
    expect(reply.body.miner_hotkey).toBe(canonical.hotkey);
    const rows = (await h.db.dataSource.query(`SELECT miner_hotkey FROM claims WHERE id = $1`, [reply.body.id])) as { miner_hotkey: string }[];
    expect(rows).toEqual([{ miner_hotkey: canonical.hotkey }]);
  });

  it('refuses a second active claim on a task under another spelling (409 duplicate_active_claim)', async () => {
    const [canonical, prefix2, prefix7] = await spellings('//IdentityMiner2');
    const task = await api.createTask();
    const first = await claimTask(canonical, task.id);
    expectStatus(first, 201);
    for (const other of [prefix2, prefix7]) {
      const again = await claimTask(other, task.id);
      expectStatus(again, 409);
      expect(again.body).toMatchObject({ detail: { error: 'duplicate_active_claim', claim_id: first.body.id } });
    }
  });

  it('counts every spelling of a key against one rate limit', async () => {
    const signers = await spellings('//IdentityMiner3');
    const tasks = await Promise.all(signers.map(() => api.createTask()));
    for (let i = 0; i < 3; i++) expectStatus(await claimTask(signers[i], tasks[i].id), 201);
    const over = await claimTask(signers[3], tasks[3].id);
    expectStatus(over, 429);
    expect(errorOf(over)).toBe('rate_limited');
  });

  describe('peer evaluation', () => {
    let task: TaskDto;
    let submission: SubmissionDto;
    let miner: BtAuthSigner[];

    beforeAll(async () => {
      miner = await spellings('//IdentityMiner4');
      task = await api.createTask({ competition_mode: 'peer_evaluation', min_peer_evaluations: 2 });
      submission = await api.submitted(miner[0], task.id, {
        artifact_uri: 'https://cdn.test/models/a.bin',
        artifact_sha256: 'ab'.repeat(32),
        artifact_size_bytes: 1024,
      });
    });

    const evaluate = (signer: BtAuthSigner) =>
      api.signed<PeerEvaluationDto>(signer, 'POST', `/api/v1/submissions/${submission.id}/peer-evaluate`, {
        status: 'accepted',
        observed_metrics: { loss: 0.001 },
      });

    it('refuses the miner evaluating his own submission under any spelling (403 cannot_evaluate_own_submission)', async () => {
      for (const spelling of miner) {
        const reply = await evaluate(spelling);
        expectStatus(reply, 403);
        expect(errorOf(reply)).toBe('cannot_evaluate_own_submission');
      }
      const rows = (await h.db.dataSource.query(`SELECT count(*)::int AS n FROM peer_evaluations WHERE submission_id = $1`, [submission.id])) as {
        n: number;
      }[];
      expect(rows[0].n).toBe(0);
    });

    it('takes one evaluation per key, stored canonical and found by any spelling', async () => {
      const [canonical, prefix2, prefix7] = await spellings('//IdentityEvaluator');
      const first = await evaluate(prefix2);
      expectStatus(first, 200);
      expect(first.body.evaluator_hotkey).toBe(canonical.hotkey);
      const second = await evaluate(prefix7);
      expectStatus(second, 409);
      expect(errorOf(second)).toBe('duplicate_peer_evaluation');
      const listed = await api.anonymous<PeerEvaluationDto[]>('GET', `/api/v1/peer-evaluations?evaluator_hotkey=${prefix7.hotkey}`);
      expectStatus(listed, 200);
      expect(listed.body.map((e) => e.id)).toEqual([first.body.id]);
      const nothing = await api.anonymous<PeerEvaluationDto[]>('GET', `/api/v1/peer-evaluations?evaluator_hotkey=not-a-hotkey`);
      expect([nothing.status, nothing.body]).toEqual([200, []]);
    });
  });

  it('refuses implementing your own idea on a centerless task under another spelling', async () => {
    const [alice, alice7] = await spellings('//IdentityMiner5', [42, 7]);
    const bob = await signerFor('//IdentityMiner6');
    const task = await api.createTask({ competition_mode: 'centerless' });
    const idea = await api.submitted(alice, task.id, { patch, proposed_idea: 'Cosine schedule.' });
    const improvement = await api.submitted(bob, task.id, { patch, proposed_idea: 'Longer warmup.', implemented_submission_id: idea.id });
    const claim = await api.claim(alice7, task.id);
    const own = await api.submit(alice7, { claim_id: claim.id, patch, proposed_idea: 'Mine again.', implemented_submission_id: idea.id });
    expect(itemsOf(own)).toEqual([['implemented_submission_invalid', 'body.implemented_submission_id']]);
    expect(own.body).toMatchObject({ detail: [{ ctx: { reason: 'own_submission' } }] });

    // Idea-reward filters take any spelling too.
    await h.db.dataSource.query(
      `INSERT INTO idea_rewards (task_id, idea_submission_id, improved_submission_id, proposer_hotkey, implementer_hotkey, metric_name, improved_metric_value)
       VALUES ($1, $2, $3, $4, $5, 'loss', 0.5)`,
      [task.id, idea.id, improvement.id, alice.hotkey, bob.hotkey],
    );
    const rewards = await api.anonymous<{ improved_submission_id: string }[]>('GET', `/api/v1/idea-rewards?proposer_hotkey=${alice7.hotkey}`);
    expectStatus(rewards, 200);
    expect(rewards.body.map((r) => r.improved_submission_id)).toEqual([improvement.id]);
  });

  it('admits a validator whose allowlist entry uses another spelling, signing with any spelling', async () => {
    for (const spelling of await spellings('//IdentityValidator', [42, 7])) {
      const reply = await api.signed(spelling, 'POST', '/api/v1/validator/submissions/scan', { limit: 1 });
      expectStatus(reply, 200);
    }
    expect(h.config.validatorHotkeys).toEqual([validator.hotkey]);
  });
});
