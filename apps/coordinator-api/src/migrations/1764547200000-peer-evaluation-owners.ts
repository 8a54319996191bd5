import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Owner-distinct peer evaluation (DECISIONS.md §6): each evaluation records the owner coldkey of its evaluator
 * (`SubtensorModule::Owner`), and one owner evaluates a submission once, whichever of its hotkeys signs. Earlier
 * rows were made before owners were read: each evaluator is taken as its own owner, which is what they were
 * counted as. The column stays nullable for rows written by tools that predate it (NULLs never collide).
 */
export class PeerEvaluationOwners1764547200000 implements MigrationInterface {
  name = 'PeerEvaluationOwners1764547200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE peer_evaluations ADD COLUMN evaluator_owner text`);
    await q.query(`UPDATE peer_evaluations SET evaluator_owner = evaluator_hotkey`);
    await q.query(`ALTER TABLE peer_evaluations ADD CONSTRAINT peer_evaluations_one_per_owner_unique UNIQUE (submission_id, evaluator_owner)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE peer_evaluations DROP CONSTRAINT peer_evaluations_one_per_owner_unique`);
    await q.query(`ALTER TABLE peer_evaluations DROP COLUMN evaluator_owner`);
  }
}
