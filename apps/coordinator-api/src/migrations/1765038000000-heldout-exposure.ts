import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The held-out exposure budget (DECISIONS §17): a task's opt-in budget; one exposure row per (task, shard in
 * use), the active one with `retired_at` null; what each accepted result released, on its submission and its
 * verification, and whether the verification's raw metric is still withheld from the public.
 */
export class HeldoutExposure1765038000000 implements MigrationInterface {
  name = 'HeldoutExposure1765038000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE tasks ADD COLUMN heldout_budget jsonb`);
    await q.query(`
      CREATE TABLE heldout_exposures (
        id uuid NOT NULL DEFAULT gen_random_uuid(),
        task_id uuid NOT NULL,
        seq integer NOT NULL,
        shard_sha256 text,
        released_best double precision,
        leader_submission_id uuid,
        spent_bits integer NOT NULL DEFAULT 0,
        budget_bits integer NOT NULL,
        releases integer NOT NULL DEFAULT 0,
        status text NOT NULL DEFAULT 'open',
        created_at timestamptz NOT NULL DEFAULT now(),
        retired_at timestamptz,
        CONSTRAINT heldout_exposures_pkey PRIMARY KEY (id),
        CONSTRAINT heldout_exposures_task_id_fkey FOREIGN KEY (task_id) REFERENCES tasks (id),
        CONSTRAINT heldout_exposures_leader_submission_id_fkey FOREIGN KEY (leader_submission_id) REFERENCES submissions (id),
        CONSTRAINT heldout_exposures_task_seq_unique UNIQUE (task_id, seq),
        CONSTRAINT heldout_exposures_status_check CHECK (status IN ('open', 'exhausted')),
        CONSTRAINT heldout_exposures_bits_check CHECK (spent_bits >= 0 AND budget_bits > 0 AND releases >= 0)
      )`);
    await q.query(`CREATE UNIQUE INDEX heldout_exposures_active_idx ON heldout_exposures (task_id) WHERE retired_at IS NULL`);
    await q.query(
      `ALTER TABLE submissions ADD COLUMN release text,
         ADD CONSTRAINT submissions_release_check CHECK (release IN ('improved', 'not_significant', 'held_for_rotation'))`,
    );
    await q.query(
      `ALTER TABLE verifications ADD COLUMN release text, ADD COLUMN released_metric_value double precision, ADD COLUMN exposure_id uuid,
         ADD COLUMN metric_withheld boolean NOT NULL DEFAULT false,
         ADD CONSTRAINT verifications_release_check CHECK (release IN ('improved', 'not_significant', 'held_for_rotation')),
         ADD CONSTRAINT verifications_exposure_id_fkey FOREIGN KEY (exposure_id) REFERENCES heldout_exposures (id)`,
    );
    await q.query(`CREATE INDEX verifications_exposure_idx ON verifications (exposure_id) WHERE exposure_id IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX verifications_exposure_idx`);
    await q.query(
      `ALTER TABLE verifications DROP CONSTRAINT verifications_exposure_id_fkey, DROP CONSTRAINT verifications_release_check,
         DROP COLUMN metric_withheld, DROP COLUMN exposure_id, DROP COLUMN released_metric_value, DROP COLUMN release`,
    );
    await q.query(`ALTER TABLE submissions DROP CONSTRAINT submissions_release_check, DROP COLUMN release`);
    await q.query(`DROP TABLE heldout_exposures`);
    await q.query(`ALTER TABLE tasks DROP COLUMN heldout_budget`);
  }
}
