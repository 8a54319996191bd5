import { MigrationInterface, QueryRunner } from 'typeorm';
import { dslHash } from '../algorithms/dsl';

// Rows whose DSL text (up to 64 KiB each) is read at once.
const READ_BATCH = 500;

/**
 * Recomputes `algorithms.dsl_hash` on the canonical DSL form of DECISIONS.md §11 (`normaliseDsl`):
 * the hashes stored before came from trimmed, uncommented lines, which kept `s3 = s0 - s1` and
 * `s3=s0-s1` apart and dropped the section markers.
 *
 * Rows that the canonical form makes equal within a task type cannot all hold its hash (the unique
 * `algorithms_dsl_unique`): the oldest (`created_at`, then `id`) takes it, so new submissions of that
 * form are its duplicates; each later one keeps its row, evaluations and score under
 * `{canonical hash}:{id}`, which no canonical hash equals. Nothing is deleted.
 *
 * Deterministic and idempotent: every hash is recomputed from the DSL text, never from the stored hash.
 * Writers are locked out while it runs; changed rows move through a unique placeholder first, so a row
 * never takes a hash another row still holds. Down is a no-op: the old hashes are not kept.
 */
export class CanonicalDslHash1795711439859 implements MigrationInterface {
  name = 'CanonicalDslHash1795711439859';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`LOCK TABLE algorithms IN SHARE ROW EXCLUSIVE MODE`);
    // The order decides which of equal rows is the oldest; the texts are read in batches.
    const rows = (await q.query(`SELECT id, task_type, dsl_hash FROM algorithms ORDER BY task_type, created_at, id`)) as {
      id: number;
      task_type: string;
      dsl_hash: string;
    }[];
    const taken = new Set<string>();
    const changed: { id: number; hash: string }[] = [];
    for (let start = 0; start < rows.length; start += READ_BATCH) {
      const batch = rows.slice(start, start + READ_BATCH);
      const texts = (await q.query(`SELECT id, algorithm_dsl FROM algorithms WHERE id = ANY($1::int[])`, [batch.map((row) => row.id)])) as {
        id: number;
        algorithm_dsl: string;
      }[];
      const dslOf = new Map(texts.map((text) => [text.id, text.algorithm_dsl]));
      for (const row of batch) {
        const canonical = dslHash(dslOf.get(row.id) ?? '');
        const key = `${row.task_type}\n${canonical}`;
        const hash = taken.has(key) ? `${canonical}:${row.id}` : canonical;
        taken.add(key);
        if (hash !== row.dsl_hash) changed.push({ id: row.id, hash });
      }
    }
    if (changed.length === 0) return;
    const ids = changed.map((c) => c.id);
    await q.query(`UPDATE algorithms SET dsl_hash = 'migrating:' || id WHERE id = ANY($1::int[])`, [ids]);
    await q.query(
      `UPDATE algorithms a SET dsl_hash = c.hash FROM unnest($1::int[], $2::text[]) AS c (id, hash) WHERE a.id = c.id`,
      [ids, changed.map((c) => c.hash)],
    );
  }

  async down(): Promise<void> {
    // Nothing to undo: the previous hashes are not kept, and a duplicate check on them was the bug.
  }
}
