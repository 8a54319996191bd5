import { MaintenanceJob, QueueName, SubmissionDto, TaskDto, VerificationSummaryDto } from '@rcs/contracts';
import { JobQueue } from '@rcs/queue';
import { CoordinatorJobs } from '../src/jobs/coordinator-jobs';
import { ScheduleKeeper } from '../src/jobs/schedule-keeper';
import { ValidatorJobsService } from '../src/validator-jobs/validator-jobs.service';
import { CoordinatorHarness } from './harness';
import { errorOf, expectStatus } from './submissions-fixtures';
import { Cast, startValidationForSuite, ValidationClient } from './validator-jobs-fixtures';

interface JobRow {
  status: string;
  attempts: number;
  validator_hotkey: string | null;
  lease_expires_at: Date | null;
  last_error: string | null;
}

describe('validator job leases', () => {
  let h: CoordinatorHarness;
  let api: ValidationClient;
  let people: Cast;
  let task: TaskDto;

  const jobRow = async (jobId: string): Promise<JobRow> =>
    (await api.query<JobRow>('SELECT status, attempts, validator_hotkey, lease_expires_at, last_error FROM validator_jobs WHERE id = $1', [jobId]))[0];

  startValidationForSuite(async (setup) => {
    ({ people, h, api } = setup);
    task = await api.createTask();
  });

  it('is scheduled as a repeatable job at boot', async () => {
    await h.app.get(ScheduleKeeper).scheduled;
    const schedulers = await h.app.get<JobQueue<CoordinatorJobs>>(JobQueue).queue(QueueName.Maintenance).getJobSchedulers();
    expect(schedulers).toEqual(
      expect.arrayContaining([expect.objectContaining({ key: 'expire-leases', name: MaintenanceJob.ExpireLeases, every: 3_600_000 })]),
    );
  });

  it('keeps a live lease leased through a sweep', async () => {
    const submission = await api.pending(people.dave, task.id);
    const job = await api.leaseOf(people.alice, submission);
    await api.sweepLeases();
    expect(await jobRow(job.job_id)).toMatchObject({ status: 'leased', attempts: 0, validator_hotkey: people.alice.hotkey });
  });

  it('returns an expired lease to the pool with attempts + 1, then another validator may lease it', async () => {
    const submission = await api.pending(people.dave, task.id);
    const job = await api.leaseOf(people.alice, submission);
    await api.expireLease(job.job_id);
    await api.sweepLeases();
    expect(await jobRow(job.job_id)).toEqual({ status: 'pending', attempts: 1, validator_hotkey: null, lease_expires_at: null, last_error: 'lease expired' });

    const late = await api.result(people.alice, job.job_id, { status: 'rejected' });
    expectStatus(late, 409);
    expect(late.body).toMatchObject({ detail: { error: 'job_not_leased', job_status: 'pending' } });

    const again = await api.leaseOf(people.bob, submission);
    expect(again.job_id).toBe(job.job_id);
    expect(await jobRow(job.job_id)).toMatchObject({ status: 'leased', attempts: 1, validator_hotkey: people.bob.hotkey });
    expectStatus(await api.result(people.bob, job.job_id, { status: 'rejected', notes: 'no improvement' }), 200);
  });

  it('returns expired leases to the pool when a validator scans, before the sweeper runs', async () => {
    const submission = await api.pending(people.eve, task.id);
    const job = await api.leaseOf(people.alice, submission);
    await api.expireLease(job.job_id);
    const rescanned = await api.leaseOf(people.bob, submission);
    expect(rescanned.job_id).toBe(job.job_id);
    expect(await jobRow(job.job_id)).toMatchObject({ status: 'leased', attempts: 1, validator_hotkey: people.bob.hotkey, last_error: 'lease expired' });
  });

  it('ends the submission in error after the third expiry, with a coordinator verification saying so', async () => {
    const submission: SubmissionDto = await api.pending(people.ferdie, task.id);
    let jobId = '';
    for (let expiry = 1; expiry <= 3; expiry += 1) {
      const job = await api.leaseOf(expiry % 2 === 1 ? people.alice : people.bob, submission);
      jobId = job.job_id;
      await api.expireLease(job.job_id);
      await api.sweepLeases();
      if (expiry < 3) expect(await jobRow(job.job_id)).toMatchObject({ status: 'pending', attempts: expiry });
    }
    expect(await jobRow(jobId)).toMatchObject({ status: 'completed', attempts: 3, validator_hotkey: null, lease_expires_at: null });
    expect((await jobRow(jobId)).last_error).toContain('expired 3 times');
    expect(await api.query('SELECT status, decided_at IS NOT NULL AS decided FROM submissions WHERE id = $1', [submission.id])).toEqual([
      { status: 'error', decided: true },
    ]);

    const listed = await api.anonymous<VerificationSummaryDto[]>('GET', `/api/v1/verifications?submission_id=${submission.id}`);
    expectStatus(listed, 200);
    expect(listed.body).toHaveLength(1);
    expect(listed.body[0]).toMatchObject({ job_id: jobId, validator_hotkey: 'coordinator', status: 'error', metric_value: null, observed_metrics: {} });
    expect(listed.body[0].notes).toContain('expired 3 times');

    // The job is gone from the pool for good, and the last lessee cannot post to it.
    expect(await api.leased(people.alice, { task_id: task.id, limit: 16 })).toEqual([]);
    const late = await api.result(people.bob, jobId, { status: 'rejected' });
    expectStatus(late, 409);
    expect(errorOf(late)).toBe('job_already_completed');
    await api.sweepLeases();
    expect(await api.query('SELECT count(*)::int AS n FROM verifications WHERE submission_id = $1', [submission.id])).toEqual([{ n: 1 }]);
  });

  it('keeps an exhausted lease out of the pool even when scans run before the sweeper', async () => {
    const submission = await api.pending(people.charlie, task.id);
    const job = await api.leaseOf(people.alice, submission);
    await api.query(`UPDATE validator_jobs SET attempts = 2, lease_expires_at = now() - interval '1 second' WHERE id = $1`, [job.job_id]);
    expect(await api.leased(people.bob, { task_id: task.id, limit: 16 })).toEqual([]);
    expect(await jobRow(job.job_id)).toMatchObject({ status: 'leased', attempts: 2 });
    await api.sweepLeases();
    expect(await jobRow(job.job_id)).toMatchObject({ status: 'completed', attempts: 3 });
    expect(await api.query('SELECT status FROM submissions WHERE id = $1', [submission.id])).toEqual([{ status: 'error' }]);
  });

  it('counts each expiry once when sweeps and scans run at once, as on several replicas', async () => {
    const own = await api.createTask();
    await api.pending(people.dave, own.id);
    await api.pending(people.eve, own.id);
    const jobs = await api.leased(people.alice, { task_id: own.id, limit: 16 });
    expect(jobs).toHaveLength(2);
    for (const job of jobs) await api.expireLease(job.job_id);
    const service = h.app.get(ValidatorJobsService);
    await Promise.all([service.expireLeases(), service.expireLeases(), api.sweepLeases(), api.leased(people.bob, { task_id: own.id })]);
    const rows = await api.query<{ attempts: number }>('SELECT attempts FROM validator_jobs WHERE id = ANY($1)', [jobs.map((job) => job.job_id)]);
    expect(rows).toEqual([{ attempts: 1 }, { attempts: 1 }]);
  });
});
