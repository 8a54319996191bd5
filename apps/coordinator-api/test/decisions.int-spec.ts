import { BtAuthSigner } from '@rcs/auth';
import { CompetitionMode, PeerEvaluationDto, SubmissionStatus } from '@rcs/contracts';
import { DecisionService, DecisionStepOrderError, TaskNotLockedError } from '../src/decisions/decision.service';
import { DomainEvents, SubmissionDecided } from '../src/events/domain-events';
import { TasksRepository } from '../src/tasks/tasks.repository';
import { CoordinatorHarness, startCoordinatorForSuite } from './harness';
import { expectStatus, signerFor, TestClient } from './submissions-fixtures';
import { insertPendingSubmission, insertRankedTask } from './support/best-results-rows';
import { until } from './support/until';

/** The one decision path (DECISIONS.md §6): every decision stamped in lock order, announced after commit. */
describe('decisions', () => {
  let h: CoordinatorHarness;
  let api: TestClient;
  let evaluators: BtAuthSigner[];
  const announced: SubmissionDecided[] = [];

  startCoordinatorForSuite({}, async (started) => {
    h = started;
    api = new TestClient(h);
    evaluators = await Promise.all(['//DecisionEvaluator0', '//DecisionEvaluator1'].map(signerFor));
    h.app.get(DomainEvents).on('submission.decided', (event) => announced.push(event));
  });

  const evaluate = (signer: BtAuthSigner, submissionId: string) =>
    api.signed<PeerEvaluationDto>(signer, 'POST', `/api/v1/submissions/${submissionId}/peer-evaluate`, {
      status: 'accepted',
      observed_metrics: { score: 1 },
    });
  const decidedAt = async (submissionId: string): Promise<Date> => {
    const rows = (await h.db.dataSource.query(`SELECT decided_at FROM submissions WHERE id = $1`, [submissionId])) as { decided_at: Date }[];
    return rows[0].decided_at;
  };
  /** Resolves once a transaction of this test's database waits on a lock while reading a task (the text shown is cut short). */
  const waitingOnTaskLock = () =>
    until(
      'a peer evaluation waiting on the task row lock',
      async () => {
        const [{ waiting }] = (await h.db.dataSource.query(
          `SELECT count(*)::int AS waiting FROM pg_stat_activity
           WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE 'SELECT "TaskEntity".%'`,
        )) as { waiting: number }[];
        return waiting;
      },
      (waiting) => waiting >= 1,
      10_000,
      10,
    );

  it('stamps a peer decision that waited on the task lock after the decision that held it, and announces both after commit', async () => {
    // min_peer_evaluations is 2: the second evaluation decides the submission.
    const taskId = await insertRankedTask(h.db, { mode: CompetitionMode.PeerEvaluation });
    const peerDecided = await insertPendingSubmission(h.db, { taskId, minerHotkey: 'miner-peer' });
    const heldDecided = await insertPendingSubmission(h.db, { taskId, minerHotkey: 'miner-held' });
    expectStatus(await evaluate(evaluators[0], peerDecided), 200);

    const before = announced.length;
    let deciding: ReturnType<typeof evaluate> | undefined;
    await h.app.get(DecisionService).transaction(async (tx) => {
      const task = await tx.lockTask(taskId);
      // Its transaction starts now, then waits for this one's task lock.
      deciding = evaluate(evaluators[1], peerDecided);
      await waitingOnTaskLock();
      await tx.decide({ task, submissionId: heldDecided, verdict: { status: SubmissionStatus.Rejected } });
      // Announced only once committed.
      expect(announced.length).toBe(before);
    });
    expectStatus(await (deciding as ReturnType<typeof evaluate>), 200);

    // Decided in lock order: the waiting decision after the one that held the lock, whenever its transaction began.
    expect((await decidedAt(peerDecided)).getTime()).toBeGreaterThan((await decidedAt(heldDecided)).getTime());
    expect(announced.slice(before)).toMatchObject([
      { submissionId: heldDecided, taskId, status: SubmissionStatus.Rejected },
      { submissionId: peerDecided, taskId, status: SubmissionStatus.Accepted },
    ]);
  });

  it('stamps a decision whose transaction began first but took the task lock second after the one that took it first', async () => {
    const taskId = await insertRankedTask(h.db, { mode: CompetitionMode.PeerEvaluation });
    const lockedFirst = await insertPendingSubmission(h.db, { taskId, minerHotkey: 'miner-first' });
    const lockedSecond = await insertPendingSubmission(h.db, { taskId, minerHotkey: 'miner-second' });
    const decisions = h.app.get(DecisionService);
    let began!: () => void;
    const hasBegun = new Promise<void>((resolve) => (began = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));

    const second = decisions.transaction(async (tx) => {
      await tx.manager.query('SELECT 1');
      began();
      await released;
      // A peer consensus verdict, as the peer-evaluation path records it.
      return tx.decide({ task: await tx.lockTask(taskId), submissionId: lockedSecond, verdict: { status: SubmissionStatus.Accepted, metric: 2, secondary: null } });
    });
    await hasBegun;
    await decisions.transaction(async (tx) =>
      tx.decide({ task: await tx.lockTask(taskId), submissionId: lockedFirst, verdict: { status: SubmissionStatus.Accepted, metric: 1, secondary: null } }),
    );
    release();
    expect(await second).not.toBeNull();

    // With now() (the transaction's start) the second would be stamped first, and be taken for the original in scoring.
    expect((await decidedAt(lockedSecond)).getTime()).toBeGreaterThan((await decidedAt(lockedFirst)).getTime());
  });

  it('refuses a decision on a task this transaction has not locked, and announces nothing when it rolls back', async () => {
    const taskId = await insertRankedTask(h.db);
    const submissionId = await insertPendingSubmission(h.db, { taskId, minerHotkey: 'miner-unlocked' });
    const before = announced.length;
    await expect(
      h.app.get(DecisionService).transaction(async (tx) => {
        const task = await h.app.get(TasksRepository).findOrThrow(tx.manager, taskId);
        return tx.decide({ task, submissionId, verdict: { status: SubmissionStatus.Error } });
      }),
    ).rejects.toBeInstanceOf(TaskNotLockedError);
    await expect(
      h.app.get(DecisionService).transaction(async (tx) => {
        await tx.decide({ task: await tx.lockTask(taskId), submissionId, verdict: { status: SubmissionStatus.Error } });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(announced.length).toBe(before);
    const rows = (await h.db.dataSource.query(`SELECT status, decided_at FROM submissions WHERE id = $1`, [submissionId])) as { status: string; decided_at: Date | null }[];
    expect(rows[0]).toEqual({ status: 'pending_verification', decided_at: null });
  });

  it('takes the steps in order: a conclusion needs a decided submission, a second decision waits for the first one to be concluded, and a commit refuses one left open', async () => {
    const taskId = await insertRankedTask(h.db);
    const first = await insertPendingSubmission(h.db, { taskId, minerHotkey: 'miner-steps-first' });
    const second = await insertPendingSubmission(h.db, { taskId, minerHotkey: 'miner-steps-second' });
    const decisions = h.app.get(DecisionService);
    const rejected = { status: SubmissionStatus.Rejected } as const;
    const before = announced.length;
    await expect(
      decisions.transaction(async (tx) => {
        await tx.lockTask(taskId);
        return tx.conclude();
      }),
    ).rejects.toBeInstanceOf(DecisionStepOrderError);
    await expect(
      decisions.transaction(async (tx) => {
        const task = await tx.lockTask(taskId);
        await tx.decideSubmission({ task, submissionId: first, verdict: rejected });
        return tx.decideSubmission({ task, submissionId: second, verdict: rejected });
      }),
    ).rejects.toBeInstanceOf(DecisionStepOrderError);
    await expect(
      decisions.transaction(async (tx) => {
        await tx.decideSubmission({ task: await tx.lockTask(taskId), submissionId: first, verdict: rejected });
      }),
    ).rejects.toBeInstanceOf(DecisionStepOrderError);
    expect(announced.length).toBe(before);
    const statuses = (await h.db.dataSource.query(`SELECT status FROM submissions WHERE id = ANY($1::uuid[])`, [[first, second]])) as { status: string }[];
    expect(statuses).toEqual([{ status: 'pending_verification' }, { status: 'pending_verification' }]);

    // The same steps in order decide it, and announce it after commit.
    const recorded = await decisions.transaction(async (tx) => {
      const decided = await tx.decideSubmission({ task: await tx.lockTask(taskId), submissionId: first, verdict: rejected });
      expect(decided?.status).toBe(SubmissionStatus.Rejected);
      return tx.conclude();
    });
    expect(recorded.submission.id).toBe(first);
    expect(announced.slice(before)).toMatchObject([{ submissionId: first, taskId, status: SubmissionStatus.Rejected }]);
  });
});
