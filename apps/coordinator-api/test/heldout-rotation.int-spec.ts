import { createHmac } from 'node:crypto';
import type { ValidatorJobDto } from '@rcs/contracts';
import { expectStatus } from './submissions-fixtures';
import { startValidation, ValidationSetup } from './validator-jobs-fixtures';

const SECRET = 'rotation-secret-of-this-suite';
const GRACE_SECONDS = 900;
const YEAR = 31_536_000;

/** What the pair must be: HMAC-SHA256(HELDOUT_ROTATION_SECRET, `task_id:slot`), first 16 bytes, hex. */
const numberOf = (taskId: string, slot: number): string => createHmac('sha256', SECRET).update(`${taskId}:${slot}`).digest().subarray(0, 16).toString('hex');

/** The job's lease time, from its expiry: the lease lasts the task's budget plus the grace. */
const leaseSeconds = (job: ValidatorJobDto): number => Date.parse(job.lease_expires_at) / 1000 - job.task.time_budget_seconds - GRACE_SECONDS;

/** The BitSota profile's rotation pair on validator jobs (DECISIONS §15): fixed at the first lease, carried by scan and claim. */
describe('held-out rotation of validator jobs', () => {
  let setup: ValidationSetup;

  beforeAll(async () => {
    setup = await startValidation({ HELDOUT_ROTATION_SECRET: SECRET, LEASE_GRACE_SECONDS: String(GRACE_SECONDS), POOL_WINDOW_BLOCKS: '300' });
  });
  afterAll(() => setup?.h.close());

  it('gives every job of a task leased in the same slot the same pair, by scan and by claim, whoever leases it', async () => {
    const task = await setup.api.createTask({ heldout_rotation_seconds: YEAR });
    expect(task.heldout_rotation_seconds).toBe(YEAR);
    const [first, second] = [await setup.api.pending(setup.people.dave, task.id), await setup.api.pending(setup.people.eve, task.id)];
    const [byAlice] = await setup.api.leased(setup.people.alice, { task_id: task.id, limit: 1 });
    expect(byAlice.submission_id).toBe(first.id);
    const claimed = await setup.api.signed<ValidatorJobDto>(setup.people.bob, 'POST', '/api/v1/validator/jobs/claim', { task_id: task.id });
    expectStatus(claimed, 200);
    expect(claimed.body.submission_id).toBe(second.id);
    const slot = Math.floor(leaseSeconds(byAlice) / YEAR);
    expect(byAlice.heldout_rotation).toEqual({ slot, number: numberOf(task.id, slot) });
    expect(claimed.body.heldout_rotation).toEqual(byAlice.heldout_rotation);
  });

  it('takes one payout window (POOL_WINDOW_BLOCKS × 12 s) for a task that sets no period, and a new slot has a new number', async () => {
    const task = await setup.api.createTask();
    expect(task.heldout_rotation_seconds).toBeNull();
    const job = await setup.api.leaseOf(setup.people.alice, await setup.api.pending(setup.people.dave, task.id));
    const slot = Math.floor(leaseSeconds(job) / 3600);
    expect(job.heldout_rotation).toEqual({ slot, number: numberOf(task.id, slot) });
    expect(numberOf(task.id, slot + 1)).not.toBe(job.heldout_rotation.number);
  });

  it('keeps the pair of the first lease when an expired job is leased again', async () => {
    const task = await setup.api.createTask({ heldout_rotation_seconds: 60 });
    const submission = await setup.api.pending(setup.people.dave, task.id);
    const job = await setup.api.leaseOf(setup.people.alice, submission);
    // As if the first lease were ten slots ago.
    const earlier = { slot: job.heldout_rotation.slot - 10, number: numberOf(task.id, job.heldout_rotation.slot - 10) };
    await setup.api.query(`UPDATE validator_jobs SET heldout_rotation_slot = $2, heldout_rotation_number = $3 WHERE id = $1`, [job.job_id, earlier.slot, earlier.number]);
    await setup.api.expireLease(job.job_id);
    const again = await setup.api.leaseOf(setup.people.bob, submission);
    expect(again.job_id).toBe(job.job_id);
    expect(again.heldout_rotation).toEqual(earlier);
  });

  it('refuses a rotation period outside 1 s .. a year with a 422 naming the field', async () => {
    const reply = await setup.api.admin('POST', '/api/v1/tasks', { slug: 'rotation-bad', title: 't', repository: 'https://git.test/x.git', base_ref: 'main', benchmark_command: 'b', allowed_patch_paths: ['a'], metric_name: 'loss', metric_direction: 'minimize', time_budget_seconds: 60, heldout_rotation_seconds: 0 });
    expectStatus(reply, 422);
    expect(JSON.stringify(reply.body)).toContain('heldout_rotation_seconds');
  });
});
