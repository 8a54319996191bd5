import { BtAuthSigner, keypairFromUri } from '@rcs/auth';
import { PeerConsensusDto, PeerEvaluationDto } from '@rcs/contracts';
import { CoordinatorHarness, startCoordinator } from './harness';
import { errorOf, expectStatus, signerFor, TestClient } from './submissions-fixtures';

const ARTIFACT = { artifact_uri: 'https://cdn.test/models/a.bin', artifact_sha256: 'ab'.repeat(32), artifact_size_bytes: 1024 };

/**
 * DECISIONS.md §6: peer consensus counts distinct owner coldkeys (`SubtensorModule::Owner`), as the pool's
 * grouping does (§11). The attacker's scenario: `//Dave//s1` submits, `//Dave//s2` and `//Dave//s3` (same owner,
 * both staked) accept it with 99, and consensus was `accepted`, 99.
 */
describe('owner-distinct peer evaluation', () => {
  let h: CoordinatorHarness;
  let api: TestClient;
  let dave: BtAuthSigner[];
  let bob: BtAuthSigner;
  let charlie: BtAuthSigner;
  let eve: BtAuthSigner;
  let ferdie: BtAuthSigner;

  const evaluate = (signer: BtAuthSigner, submissionId: string, score: number) =>
    api.signed<PeerEvaluationDto>(signer, 'POST', `/api/v1/submissions/${submissionId}/peer-evaluate`, { status: 'accepted', observed_metrics: { loss: score } });
  const consensusOf = async (submissionId: string): Promise<PeerConsensusDto> => {
    const reply = await api.anonymous<PeerConsensusDto>('GET', `/api/v1/submissions/${submissionId}/peer-consensus`);
    expectStatus(reply, 200);
    return reply.body;
  };

  beforeAll(async () => {
    dave = await Promise.all(['//Dave//s1', '//Dave//s2', '//Dave//s3'].map(signerFor));
    [bob, charlie, eve, ferdie] = await Promise.all(['//Bob', '//Charlie', '//Eve', '//Ferdie'].map(signerFor));
    // The chain records Dave's owner under another SS58 spelling (prefix 2) for s3: one key, one owner.
    const daveColdkey = (await keypairFromUri('//Dave')).address;
    const daveColdkeyElsewhere = (await keypairFromUri('//Dave', 2)).address;
    const neurons = [
      ...dave.map((signer, i) => ({ hotkey: signer.hotkey, stake: '5000', uid: null, owner: i === 2 ? daveColdkeyElsewhere : daveColdkey })),
      // Eve's hotkey is owned by Bob's key: Bob and Eve are one owner.
      { hotkey: eve.hotkey, stake: '5000', uid: null, owner: bob.hotkey },
      ...[bob, charlie, ferdie].map((signer) => ({ hotkey: signer.hotkey, stake: '5000', uid: null })),
    ];
    h = await startCoordinator({
      STAKE_CHECK: 'on',
      CLAIM_RATE_LIMIT_MAX: '0',
      SUBMISSION_RATE_LIMIT_MAX: '0',
      DEV_CHAIN_SEED: JSON.stringify({ subnets: { 1: neurons } }),
    });
    api = new TestClient(h);
  });

  afterAll(async () => {
    await h.close();
  });

  it("refuses every hotkey of the submitter's owner with 403 own_submission, so the attacker's consensus stays pending", async () => {
    const task = await api.createTask({ competition_mode: 'peer_evaluation', min_peer_evaluations: 2 });
    const submission = await api.submitted(dave[0], task.id, ARTIFACT);
    for (const sibling of [dave[1], dave[2]]) {
      const reply = await evaluate(sibling, submission.id, 99);
      expect([reply.status, errorOf(reply)]).toEqual([403, 'own_submission']);
      expect(reply.body).toMatchObject({ detail: { submission_id: submission.id } });
    }
    expect(await consensusOf(submission.id)).toMatchObject({ status: 'pending', accepted_count: 0, consensus_metric_value: null });
  });

  it('takes one evaluation per owner (409 already_evaluated_by_owner), so a consensus needs distinct owners', async () => {
    const task = await api.createTask({ competition_mode: 'peer_evaluation', min_peer_evaluations: 3 });
    const submission = await api.submitted(charlie, task.id, ARTIFACT);
    expectStatus(await evaluate(dave[0], submission.id, 99), 200);
    for (const sibling of [dave[1], dave[2]]) {
      const reply = await evaluate(sibling, submission.id, 99);
      expect([reply.status, errorOf(reply)]).toEqual([409, 'already_evaluated_by_owner']);
    }
    expectStatus(await evaluate(bob, submission.id, 2), 200);
    // Eve is Bob's hotkey: a second evaluation by the same owner.
    expect(errorOf(await evaluate(eve, submission.id, 2))).toBe('already_evaluated_by_owner');
    // The same hotkey again keeps its own answer.
    expect(errorOf(await evaluate(bob, submission.id, 2))).toBe('duplicate_peer_evaluation');
    expect(await consensusOf(submission.id)).toMatchObject({ status: 'pending', accepted_count: 2 });
    expectStatus(await evaluate(ferdie, submission.id, 4), 200);
    expect(await consensusOf(submission.id)).toMatchObject({ status: 'accepted', accepted_count: 3, consensus_metric_value: 4 });
  });

  it('records each evaluator’s owner in its canonical spelling', async () => {
    const task = await api.createTask({ competition_mode: 'peer_evaluation', min_peer_evaluations: 3 });
    const submission = await api.submitted(bob, task.id, ARTIFACT);
    expectStatus(await evaluate(dave[2], submission.id, 1), 200);
    expectStatus(await evaluate(charlie, submission.id, 1), 200);
    const rows = (await h.db.dataSource.query(`SELECT evaluator_hotkey, evaluator_owner FROM peer_evaluations WHERE submission_id = $1 ORDER BY evaluator_owner`, [submission.id])) as unknown[];
    const daveColdkey = (await keypairFromUri('//Dave')).address;
    expect(rows).toEqual(
      [
        { evaluator_hotkey: dave[2].hotkey, evaluator_owner: daveColdkey },
        { evaluator_hotkey: charlie.hotkey, evaluator_owner: charlie.hotkey },
      ].sort((a, b) => (a.evaluator_owner < b.evaluator_owner ? -1 : 1)),
    );
  });
});
