import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Pending re-score jobs by age (DECISIONS §17): a scan leases them before any decide job, and this index finds them
 * without passing every pending decide job of a backlog.
 */
export class PendingRescoreJobs1765038300000 implements MigrationInterface {
  name = 'PendingRescoreJobs1765038300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX validator_jobs_pending_rescore_idx ON validator_jobs (created_at, id) WHERE status = 'pending' AND reason = 'rescore'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX validator_jobs_pending_rescore_idx`);
  }
}
