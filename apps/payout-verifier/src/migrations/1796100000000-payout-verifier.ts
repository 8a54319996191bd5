import { MigrationInterface, QueryRunner } from 'typeorm';

/** The payout verifier's verdict per epoch, its evidence and its challenge (DECISIONS.md §16). */
export class PayoutVerifier1796100000000 implements MigrationInterface {
  name = 'PayoutVerifier1796100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE epoch_verdicts (
        epoch integer NOT NULL,
        result text NOT NULL,
        "check" text,
        detail text,
        allocation_sha256 text,
        snapshot_sha256 text,
        cumulative jsonb,
        carried_over text,
        evidence text,
        evidence_hash text,
        challenge text NOT NULL DEFAULT 'none',
        challenge_block integer,
        challenge_tx text,
        challenge_error text,
        unverified_attempts integer NOT NULL DEFAULT 0,
        judged_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT epoch_verdicts_pkey PRIMARY KEY (epoch),
        CONSTRAINT epoch_verdicts_result_check CHECK (result IN ('verified', 'mismatch', 'unverified')),
        CONSTRAINT epoch_verdicts_challenge_check CHECK (challenge IN ('none', 'pending', 'included'))
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE epoch_verdicts`);
  }
}
