import { MigrationInterface, QueryRunner } from 'typeorm';

/** Verifications, peer evaluations, best results and their history, idea rewards (DECISIONS.md §3, §6). */
export class Validation1763769600000 implements MigrationInterface {
  name = 'Validation1763769600000';

  async up(q: QueryRunner): Promise<void> {
    // When and with which observed values a submission was decided: the reward snapshot reads these.
    await q.query(`
      ALTER TABLE submissions
        ADD COLUMN decided_at timestamptz,
        ADD COLUMN verified_metric_value double precision,
        ADD COLUMN verified_secondary_metric_value double precision`);
    await q.query(`CREATE INDEX submissions_task_decided_idx ON submissions (task_id, decided_at) WHERE status = 'accepted'`);
    await q.query(`ALTER TABLE validator_jobs ADD COLUMN last_error text`);

    await q.query(`
      CREATE TABLE verifications (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        submission_id uuid NOT NULL REFERENCES submissions (id),
        job_id uuid NOT NULL REFERENCES validator_jobs (id),
        task_id uuid NOT NULL REFERENCES tasks (id),
        validator_hotkey text NOT NULL,
        status text NOT NULL CHECK (status IN ('accepted', 'rejected', 'error')),
        metric_name text NOT NULL,
        metric_value double precision,
        observed_metrics jsonb NOT NULL DEFAULT '{}',
        notes text,
        replay_log text,
        created_at timestamptz NOT NULL DEFAULT now(),
        -- One decision per job: a re-post is answered from this row, never recorded twice.
        CONSTRAINT verifications_one_per_job_unique UNIQUE (job_id)
      )`);
    await q.query(`CREATE INDEX verifications_submission_idx ON verifications (submission_id, created_at DESC)`);
    await q.query(`CREATE INDEX verifications_created_idx ON verifications (created_at DESC, id DESC)`);

    await q.query(`
      CREATE TABLE peer_evaluations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        submission_id uuid NOT NULL REFERENCES submissions (id),
        task_id uuid NOT NULL REFERENCES tasks (id),
        evaluator_hotkey text NOT NULL,
        status text NOT NULL CHECK (status IN ('accepted', 'rejected', 'error')),
        observed_metrics jsonb NOT NULL DEFAULT '{}',
        metric_value double precision,
        notes text,
        created_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz,
        CONSTRAINT peer_evaluations_one_per_evaluator_unique UNIQUE (submission_id, evaluator_hotkey)
      )`);
    await q.query(`CREATE INDEX peer_evaluations_created_idx ON peer_evaluations (created_at DESC, id DESC)`);

    await q.query(`
      CREATE TABLE best_results (
        task_id uuid PRIMARY KEY REFERENCES tasks (id),
        submission_id uuid NOT NULL REFERENCES submissions (id),
        metric_name text NOT NULL,
        metric_direction text NOT NULL CHECK (metric_direction IN ('maximize', 'minimize')),
        metric_value double precision NOT NULL,
        secondary_metric_value double precision,
        miner_hotkey text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE best_result_changes (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        task_id uuid NOT NULL REFERENCES tasks (id),
        submission_id uuid NOT NULL REFERENCES submissions (id),
        previous_submission_id uuid REFERENCES submissions (id),
        metric_value double precision NOT NULL,
        previous_metric_value double precision,
        secondary_metric_value double precision,
        miner_hotkey text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX best_result_changes_task_idx ON best_result_changes (task_id, created_at)`);

    await q.query(`
      CREATE TABLE idea_rewards (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        task_id uuid NOT NULL REFERENCES tasks (id),
        improved_submission_id uuid NOT NULL REFERENCES submissions (id),
        idea_submission_id uuid NOT NULL REFERENCES submissions (id),
        proposer_hotkey text NOT NULL,
        implementer_hotkey text NOT NULL,
        metric_name text NOT NULL,
        previous_metric_value double precision,
        improved_metric_value double precision NOT NULL,
        improvement_amount double precision,
        created_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT idea_rewards_one_per_improvement_unique UNIQUE (improved_submission_id)
      )`);
    await q.query(`CREATE INDEX idea_rewards_created_idx ON idea_rewards (created_at DESC, id DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE idea_rewards`);
    await q.query(`DROP TABLE best_result_changes`);
    await q.query(`DROP TABLE best_results`);
    await q.query(`DROP TABLE peer_evaluations`);
    await q.query(`DROP TABLE verifications`);
    await q.query(`ALTER TABLE validator_jobs DROP COLUMN last_error`);
    await q.query(`DROP INDEX submissions_task_decided_idx`);
    await q.query(`ALTER TABLE submissions DROP COLUMN decided_at, DROP COLUMN verified_metric_value, DROP COLUMN verified_secondary_metric_value`);
  }
}
