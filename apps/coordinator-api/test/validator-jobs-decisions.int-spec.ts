import { SubmissionDto, TaskDto } from '@rcs/contracts';
import { errorOf, expectStatus } from './submissions-fixtures';
import { Cast, startValidationForSuite, ValidationClient } from './validator-jobs-fixtures';

/** The decision of a submission is one transaction: all of it happens, or none of it. */
describe('validator decisions', () => {
  let api: ValidationClient;
  let people: Cast;

  startValidationForSuite((setup) => ({ people, api } = setup));

  describe('atomicity', () => {
    let task: TaskDto;
    let submission: SubmissionDto;
    let jobId: string;

    beforeAll(async () => {
      task = await api.createTask({ metric_name: 'accuracy', metric_direction: 'maximize' });
      submission = await api.pending(people.dave, task.id);
      jobId = (await api.leaseOf(people.alice, submission)).job_id;
    });

    /** Nothing of the failed decision is left: the submission pending, the lease standing, no verification, no best. */
    async function expectUntouched(): Promise<void> {
      expect(
        await api.query('SELECT status, decided_at, verified_metric_value, verified_secondary_metric_value FROM submissions WHERE id = $1', [submission.id]),
      ).toEqual([{ status: 'pending_verification', decided_at: null, verified_metric_value: null, verified_secondary_metric_value: null }]);
      expect(await api.query('SELECT status, validator_hotkey, completed_at FROM validator_jobs WHERE id = $1', [jobId])).toEqual([
        { status: 'leased', validator_hotkey: people.alice.hotkey, completed_at: null },
      ]);
      expect(await api.query('SELECT count(*)::int AS n FROM verifications WHERE submission_id = $1', [submission.id])).toEqual([{ n: 0 }]);
      expect(await api.query('SELECT count(*)::int AS n FROM best_results WHERE task_id = $1', [task.id])).toEqual([{ n: 0 }]);
      expect(await api.query('SELECT count(*)::int AS n FROM best_result_changes WHERE task_id = $1', [task.id])).toEqual([{ n: 0 }]);
    }

    it('rolls everything back when the verification cannot be stored after the submission was decided', async () => {
      await api.query(`ALTER TABLE verifications ADD CONSTRAINT test_refuses_boom CHECK (notes IS DISTINCT FROM 'boom')`);
      try {
        const reply = await api.result(people.alice, jobId, { status: 'accepted', observed_metrics: { accuracy: 0.5 }, notes: 'boom' });
        expectStatus(reply, 500);
        expect(errorOf(reply)).toBe('internal_error');
      } finally {
        await api.query('ALTER TABLE verifications DROP CONSTRAINT test_refuses_boom');
      }
      await expectUntouched();
    });

    it('rolls everything back when the best result cannot be recorded after the job was completed', async () => {
      await api.query('ALTER TABLE best_result_changes ADD CONSTRAINT test_refuses_0777 CHECK (metric_value <> 0.777)');
      try {
        const reply = await api.result(people.alice, jobId, { status: 'accepted', observed_metrics: { accuracy: 0.777 } });
        expectStatus(reply, 500);
      } finally {
        await api.query('ALTER TABLE best_result_changes DROP CONSTRAINT test_refuses_0777');
      }
      await expectUntouched();
    });

    it('records the whole decision once nothing stands in the way', async () => {
      const reply = await api.result(people.alice, jobId, { status: 'accepted', observed_metrics: { accuracy: 0.777 } });
      expectStatus(reply, 200);
      expect(await api.query('SELECT status, verified_metric_value FROM submissions WHERE id = $1', [submission.id])).toEqual([
        { status: 'accepted', verified_metric_value: 0.777 },
      ]);
      expect(await api.query('SELECT submission_id FROM best_results WHERE task_id = $1', [task.id])).toEqual([{ submission_id: submission.id }]);
    });
  });

  describe('concurrent results of one task', () => {
    it('leaves exactly the best a sequential order of the same decisions would', async () => {
      const task = await api.createTask({ metric_name: 'score', metric_direction: 'maximize' });
      const miners = [people.dave, people.eve, people.ferdie, people.charlie];
      const submissions: SubmissionDto[] = [];
      for (let i = 0; i < 20; i += 1) submissions.push(await api.pending(miners[i % miners.length], task.id));
      const jobs = [
        ...(await api.leased(people.alice, { task_id: task.id, limit: 10 })),
        ...(await api.leased(people.bob, { task_id: task.id, limit: 10 })),
      ];
      expect(jobs).toHaveLength(20);
      // Distinct scores, posted in an order unrelated to them: the winner is the highest whatever the order.
      const score = (index: number): number => ((index * 7) % 20) / 100 + 0.5;
      const lessee = new Map(jobs.map((job, index) => [job.job_id, index < 10 ? people.alice : people.bob]));
      const replies = await Promise.all(
        jobs.map((job) => {
          const index = submissions.findIndex((submission) => submission.id === job.submission_id);
          return api.result(lessee.get(job.job_id) ?? people.alice, job.job_id, { status: 'accepted', observed_metrics: { score: score(index) } });
        }),
      );
      for (const reply of replies) expectStatus(reply, 200);

      const scores = submissions.map((_, index) => score(index));
      const top = Math.max(...scores);
      const best = await api.anonymous('GET', `/api/v1/tasks/${task.id}/best`);
      expectStatus(best, 200);
      expect(best.body).toMatchObject({ submission_id: submissions[scores.indexOf(top)].id, metric_value: top });

      // Replaying the decisions in the order they were made gives exactly the recorded history of the best.
      const decided = await api.query<{ id: string; value: number }>(
        `SELECT id, verified_metric_value AS value FROM submissions WHERE task_id = $1 ORDER BY decided_at, id`,
        [task.id],
      );
      expect(decided).toHaveLength(20);
      const expectedChanges: string[] = [];
      let running = -Infinity;
      for (const row of decided) {
        if (row.value > running) {
          running = row.value;
          expectedChanges.push(row.id);
        }
      }
      const changes = await api.query<{ submission_id: string }>(
        'SELECT submission_id FROM best_result_changes WHERE task_id = $1 ORDER BY created_at, id',
        [task.id],
      );
      expect(changes.map((change) => change.submission_id)).toEqual(expectedChanges);
      expect(await api.query(`SELECT status, count(*)::int AS n FROM validator_jobs WHERE task_id = $1 GROUP BY status`, [task.id])).toEqual([
        { status: 'completed', n: 20 },
      ]);
      expect(await api.query(`SELECT count(DISTINCT job_id)::int AS n FROM verifications WHERE task_id = $1`, [task.id])).toEqual([{ n: 20 }]);
    });
  });
});
