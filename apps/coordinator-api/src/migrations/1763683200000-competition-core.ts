import { MigrationInterface, QueryRunner } from 'typeorm';

/** Tasks, claims, work items, submissions and validator jobs (coordinator spec; DECISIONS.md §3–§6). */
export class CompetitionCore1763683200000 implements MigrationInterface {
  name = 'CompetitionCore1763683200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE tasks (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        slug text NOT NULL,
        title text NOT NULL,
        brief text,
        onboard_md text,
        repository text NOT NULL,
        base_ref text NOT NULL,
        base_commit_sha text,
        setup_command text,
        benchmark_command text NOT NULL,
        result_path text,
        allowed_patch_paths jsonb NOT NULL DEFAULT '[]',
        max_patch_bytes integer NOT NULL CHECK (max_patch_bytes BETWEEN 1 AND 1048576),
        metric_name text NOT NULL,
        metric_direction text NOT NULL CHECK (metric_direction IN ('maximize', 'minimize')),
        ranking_mode text NOT NULL CHECK (ranking_mode IN ('scalar', 'pareto')),
        secondary_metric_name text,
        secondary_metric_direction text CHECK (secondary_metric_direction IN ('maximize', 'minimize')),
        metric_resolution double precision NOT NULL DEFAULT 0 CHECK (metric_resolution >= 0),
        metric_resolution_mode text NOT NULL DEFAULT 'absolute' CHECK (metric_resolution_mode IN ('absolute', 'log')),
        reference_model_id text,
        reference_parameter_count bigint,
        model_family text,
        slug_compatibility_note text,
        validator_benchmark_env jsonb NOT NULL DEFAULT '{}',
        competition_mode text NOT NULL CHECK (competition_mode IN ('standard', 'centerless', 'peer_evaluation')),
        min_peer_evaluations integer NOT NULL CHECK (min_peer_evaluations BETWEEN 1 AND 20),
        time_budget_seconds integer NOT NULL CHECK (time_budget_seconds BETWEEN 1 AND 86400),
        task_state text NOT NULL CHECK (task_state IN ('live', 'paused', 'closed')),
        closed_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT tasks_slug_unique UNIQUE (slug)
      )`);
    await q.query(`CREATE INDEX tasks_created_idx ON tasks (created_at DESC, id DESC)`);

    await q.query(`
      CREATE TABLE work_items (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        task_id uuid NOT NULL REFERENCES tasks (id),
        title text NOT NULL,
        description text NOT NULL,
        priority integer NOT NULL DEFAULT 0,
        status text NOT NULL CHECK (status IN ('open', 'claimed', 'completed', 'cancelled')),
        source text NOT NULL CHECK (source IN ('planner', 'agentic_planner', 'admin')),
        dedupe_key text NOT NULL,
        idea_submission_id uuid,
        parent_submission_id uuid,
        claim_id uuid,
        completed_submission_id uuid,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // Planners never duplicate an item that is still open or claimed.
    await q.query(
      `CREATE UNIQUE INDEX work_items_live_dedupe_unique ON work_items (task_id, dedupe_key) WHERE status IN ('open', 'claimed')`,
    );
    await q.query(`CREATE INDEX work_items_task_status_idx ON work_items (task_id, status, created_at DESC)`);

    await q.query(`
      CREATE TABLE claims (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        task_id uuid NOT NULL REFERENCES tasks (id),
        work_item_id uuid REFERENCES work_items (id),
        miner_hotkey text NOT NULL,
        claim_description text NOT NULL,
        base_submission_id uuid,
        status text NOT NULL CHECK (status IN ('active', 'submitted', 'expired', 'cancelled')),
        expires_at timestamptz NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // One active claim per task and miner, enforced by the database under any concurrency.
    await q.query(
      `CREATE UNIQUE INDEX claims_one_active_per_miner_unique ON claims (task_id, miner_hotkey) WHERE status = 'active'`,
    );
    await q.query(`CREATE INDEX claims_active_expiry_idx ON claims (expires_at) WHERE status = 'active'`);
    await q.query(`CREATE INDEX claims_task_status_idx ON claims (task_id, status, created_at DESC)`);
    await q.query(`ALTER TABLE work_items ADD CONSTRAINT work_items_claim_fk FOREIGN KEY (claim_id) REFERENCES claims (id)`);

    await q.query(`
      CREATE TABLE submissions (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        task_id uuid NOT NULL REFERENCES tasks (id),
        claim_id uuid NOT NULL REFERENCES claims (id),
        miner_hotkey text NOT NULL,
        base_ref text NOT NULL,
        patch text NOT NULL DEFAULT '',
        summary text NOT NULL,
        proposed_idea text,
        implemented_submission_id uuid REFERENCES submissions (id),
        artifact_uri text,
        artifact_sha256 text CHECK (artifact_sha256 ~ '^[0-9a-f]{64}$'),
        artifact_size_bytes bigint CHECK (artifact_size_bytes >= 0),
        execution_log text,
        claimed_metrics jsonb NOT NULL DEFAULT '{}',
        status text NOT NULL CHECK (status IN ('pending_verification', 'accepted', 'rejected', 'error')),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT submissions_one_per_claim_unique UNIQUE (claim_id),
        CONSTRAINT submissions_patch_or_artifact CHECK (patch <> '' OR artifact_uri IS NOT NULL)
      )`);
    await q.query(`CREATE INDEX submissions_created_idx ON submissions (created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX submissions_task_created_idx ON submissions (task_id, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX submissions_status_created_idx ON submissions (status, created_at DESC, id DESC)`);
    await q.query(`ALTER TABLE claims ADD CONSTRAINT claims_base_submission_fk FOREIGN KEY (base_submission_id) REFERENCES submissions (id)`);
    await q.query(`
      ALTER TABLE work_items
        ADD CONSTRAINT work_items_idea_submission_fk FOREIGN KEY (idea_submission_id) REFERENCES submissions (id),
        ADD CONSTRAINT work_items_parent_submission_fk FOREIGN KEY (parent_submission_id) REFERENCES submissions (id),
        ADD CONSTRAINT work_items_completed_submission_fk FOREIGN KEY (completed_submission_id) REFERENCES submissions (id)`);

    await q.query(`
      CREATE TABLE validator_jobs (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        submission_id uuid NOT NULL REFERENCES submissions (id),
        task_id uuid NOT NULL REFERENCES tasks (id),
        status text NOT NULL CHECK (status IN ('pending', 'leased', 'completed')),
        attempts integer NOT NULL DEFAULT 0,
        validator_hotkey text,
        lease_expires_at timestamptz,
        completed_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT validator_jobs_one_per_submission_unique UNIQUE (submission_id)
      )`);
    await q.query(`CREATE INDEX validator_jobs_pending_idx ON validator_jobs (created_at, id) WHERE status = 'pending'`);
    await q.query(`CREATE INDEX validator_jobs_lease_idx ON validator_jobs (lease_expires_at) WHERE status = 'leased'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE validator_jobs`);
    await q.query(`ALTER TABLE work_items DROP CONSTRAINT work_items_claim_fk`);
    await q.query(`ALTER TABLE claims DROP CONSTRAINT claims_base_submission_fk`);
    await q.query(`ALTER TABLE work_items DROP CONSTRAINT work_items_idea_submission_fk, DROP CONSTRAINT work_items_parent_submission_fk, DROP CONSTRAINT work_items_completed_submission_fk`);
    await q.query(`DROP TABLE submissions`);
    await q.query(`DROP TABLE claims`);
    await q.query(`DROP TABLE work_items`);
    await q.query(`DROP TABLE tasks`);
  }
}
