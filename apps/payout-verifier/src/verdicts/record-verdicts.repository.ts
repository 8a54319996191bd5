import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

/** Rows per statement when reading or writing verdicts: passed as arrays, so an epoch of 100,000 records takes four statements. */
const BATCH = 25_000;

/** The SHA-256 (hex) of a record's key: the primary key of its stored verdict. */
export function recordSha256(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** Recipient records' verdicts in the verifier's own database: written once, never changed (a record never changes). */
@Injectable()
export class RecordVerdictsRepository {
  /** The stored verdicts of `keys`, by key; a key never judged is absent. */
  async known(manager: EntityManager, keys: readonly string[]): Promise<Map<string, boolean>> {
    const byHash = new Map(keys.map((key) => [recordSha256(key), key]));
    const hashes = [...byHash.keys()];
    const found = new Map<string, boolean>();
    for (let from = 0; from < hashes.length; from += BATCH) {
      const batch = hashes.slice(from, from + BATCH);
      const rows = (await manager.query(`SELECT record_sha256, valid FROM recipient_record_verdicts WHERE record_sha256 = ANY($1::text[])`, [batch])) as { record_sha256: string; valid: boolean }[];
      for (const row of rows) found.set(byHash.get(row.record_sha256) as string, row.valid);
    }
    return found;
  }

  /** Stores verdicts, in one statement per batch; one stored already is kept as it was. */
  async remember(manager: EntityManager, verdicts: readonly { key: string; valid: boolean }[]): Promise<void> {
    for (let from = 0; from < verdicts.length; from += BATCH) {
      const batch = verdicts.slice(from, from + BATCH);
      await manager.query(
        `INSERT INTO recipient_record_verdicts (record_sha256, valid) SELECT * FROM unnest($1::text[], $2::boolean[]) ON CONFLICT (record_sha256) DO NOTHING`,
        [batch.map((v) => recordSha256(v.key)), batch.map((v) => v.valid)],
      );
    }
  }
}
