import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Re-score jobs (DECISIONS §17): a validator job either decides its submission (`decide`, one per submission, as
 * before) or re-scores an already decided one on a task's active shard (`rescore`, one open per submission and
 * shard exposure; an admin re-score outside a budget has no exposure).
 */
export class RescoreJobs1765038100000 implements MigrationInterface {
  name = 'RescoreJobs1765038100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `ALTER TABLE validator_jobs ADD COLUMN reason text NOT NULL DEFAULT 'decide', ADD COLUMN exposure_id uuid,
         ADD CONSTRAINT validator_jobs_reason_check CHECK (reason IN ('decide', 'rescore')),
         ADD CONSTRAINT validator_jobs_exposure_id_fkey FOREIGN KEY (exposure_id) REFERENCES heldout_exposures (id),
         DROP CONSTRAINT validator_jobs_one_per_submission_unique`,
    );
    await q.query(`CREATE UNIQUE INDEX validator_jobs_one_decide_per_submission_idx ON validator_jobs (submission_id) WHERE reason = 'decide'`);
    // One open re-score per submission and shard; a finished one may be asked for again (an admin re-score after a benchmark fix).
    await q.query(
      `CREATE UNIQUE INDEX validator_jobs_one_open_rescore_idx ON validator_jobs (submission_id, exposure_id) WHERE reason = 'rescore' AND status <> 'completed'`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM verifications v USING validator_jobs j WHERE v.job_id = j.id AND j.reason = 'rescore'`);
    await q.query(`DELETE FROM validator_jobs WHERE reason = 'rescore'`);
    await q.query(`DROP INDEX validator_jobs_one_open_rescore_idx`);
    await q.query(`DROP INDEX validator_jobs_one_decide_per_submission_idx`);
    await q.query(
      `ALTER TABLE validator_jobs ADD CONSTRAINT validator_jobs_one_per_submission_unique UNIQUE (submission_id),
         DROP CONSTRAINT validator_jobs_exposure_id_fkey, DROP CONSTRAINT validator_jobs_reason_check, DROP COLUMN exposure_id, DROP COLUMN reason`,
    );
  }
}
