import { BtAuthSigner } from '@rcs/auth';
import {
  MaintenanceJob,
  QueueName,
  ScanResponseDto,
  SubmissionDto,
  ValidatorJobDto,
  VerificationSummaryDto,
} from '@rcs/contracts';
import { JobQueue } from '@rcs/queue';
import { suiteResource } from '@rcs/testing';
import { CoordinatorJobs } from '../src/jobs/coordinator-jobs';
import type { LeaseExpiryOutcome } from '../src/jobs/job-results';
import { CoordinatorHarness, startCoordinator } from './harness';
import { Body, expectStatus, Reply, signerFor, TestClient } from './submissions-fixtures';

/** Test helpers of the validation suites: allowlisted validators, pending submissions, leases, results. */

/** The allowlisted validators (//Alice, //Bob), a hotkey that is not on the list (//Charlie), and miners. */
export interface Cast {
  alice: BtAuthSigner;
  bob: BtAuthSigner;
  charlie: BtAuthSigner;
  dave: BtAuthSigner;
  eve: BtAuthSigner;
  ferdie: BtAuthSigner;
}

export async function cast(): Promise<Cast> {
  const [alice, bob, charlie, dave, eve, ferdie] = await Promise.all(
    ['//Alice', '//Bob', '//Charlie', '//Dave', '//Eve', '//Ferdie'].map((uri) => signerFor(uri)),
  );
  return { alice, bob, charlie, dave, eve, ferdie };
}

/** What a validation test file works with: its cast, its coordinator and a client of it. */
export interface ValidationSetup {
  people: Cast;
  h: CoordinatorHarness;
  api: ValidationClient;
}

/** A cast and the validation coordinator (see startValidationCoordinator), with a client. */
export async function startValidation(env: NodeJS.ProcessEnv = {}): Promise<ValidationSetup> {
  const people = await cast();
  const h = await startValidationCoordinator(people, env);
  return { people, h, api: new ValidationClient(h) };
}

/** startValidation before the enclosing describe's tests, handing the setup to `use`; its coordinator closes after them. */
export function startValidationForSuite(use: (setup: ValidationSetup) => unknown): void {
  suiteResource(() => startValidation(), (setup) => setup.h.close(), use);
}

/** The coordinator with //Alice and //Bob allowlisted, rate limits off, and the scheduled sweeps out of the way. */
export function startValidationCoordinator(people: Cast, env: NodeJS.ProcessEnv = {}): Promise<CoordinatorHarness> {
  return startCoordinator({
    VALIDATOR_HOTKEYS: `${people.alice.hotkey},${people.bob.hotkey}`,
    CLAIM_RATE_LIMIT_MAX: '0',
    SUBMISSION_RATE_LIMIT_MAX: '0',
    // Tests run the sweeps themselves, through the queue.
    LEASE_SWEEP_INTERVAL_SECONDS: '3600',
    CLAIM_SWEEP_INTERVAL_SECONDS: '3600',
    ...env,
  });
}

export class ValidationClient extends TestClient {
  constructor(private readonly harness: CoordinatorHarness) {
    super(harness);
  }

  /** An artifact submission (no patch needed) on a fresh claim; it waits in pending_verification. */
  async pending(miner: BtAuthSigner, taskId: string, fields: Body = {}): Promise<SubmissionDto> {
    return this.submitted(miner, taskId, {
      artifact_uri: 'https://cdn.test/models/model.bin',
      artifact_sha256: 'ab'.repeat(32),
      artifact_size_bytes: 1024,
      claimed_metrics: { loss: 0.1 },
      ...fields,
    });
  }

  scan(validator: BtAuthSigner, body?: Body): Promise<Reply<ScanResponseDto>> {
    return this.signed<ScanResponseDto>(validator, 'POST', '/api/v1/validator/submissions/scan', body);
  }

  /** Scans and expects 200. */
  async leased(validator: BtAuthSigner, body?: Body): Promise<ValidatorJobDto[]> {
    const reply = await this.scan(validator, body);
    expectStatus(reply, 200);
    return reply.body.jobs;
  }

  /** Leases the job of this submission (scanning its task, oldest first) for `validator`. */
  async leaseOf(validator: BtAuthSigner, submission: SubmissionDto): Promise<ValidatorJobDto> {
    const jobs = await this.leased(validator, { task_id: submission.task_id, limit: 16 });
    const job = jobs.find((candidate) => candidate.submission_id === submission.id);
    if (!job) throw new JobNotLeasedError(submission.id);
    return job;
  }

  result(validator: BtAuthSigner, jobId: string, body: Body): Promise<Reply<VerificationSummaryDto>> {
    return this.signed<VerificationSummaryDto>(validator, 'POST', `/api/v1/validator/jobs/${jobId}/result`, body);
  }

  verify(validator: BtAuthSigner, submissionId: string, body: Body): Promise<Reply<VerificationSummaryDto>> {
    return this.signed<VerificationSummaryDto>(validator, 'POST', `/api/v1/submissions/${submissionId}/verify`, body);
  }

  /** Runs the lease sweep through the queue, as the repeatable job does, and waits for it. */
  sweepLeases(): Promise<LeaseExpiryOutcome> {
    return this.harness.app
      .get<JobQueue<CoordinatorJobs>>(JobQueue)
      .runAndWait(QueueName.Maintenance, MaintenanceJob.ExpireLeases, {}, 10_000);
  }

  /** Moves the lease's expiry into the past, as if the validator had gone silent. */
  async expireLease(jobId: string): Promise<void> {
    await this.harness.db.dataSource.query(`UPDATE validator_jobs SET lease_expires_at = now() - interval '1 second' WHERE id = $1`, [jobId]);
  }

  query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    return this.harness.db.dataSource.query(sql, params);
  }
}

export class JobNotLeasedError extends Error {
  constructor(submissionId: string) {
    super(`the scan did not lease the job of submission ${submissionId}`);
    this.name = 'JobNotLeasedError';
  }
}

/** Every field of the verification summary (DECISIONS.md §6), and nothing else (no replay_log). */
export const VERIFICATION_FIELDS = [
  'created_at',
  'id',
  'job_id',
  'metric_name',
  'metric_value',
  'notes',
  'observed_metrics',
  'status',
  'submission_id',
  'task_id',
  'validator_hotkey',
];
