import { MigrationInterface, QueryRunner } from 'typeorm';

/** Each judged recipient record's verdict, by the SHA-256 of its bytes, so a restart does not check its signature again (DECISIONS.md §16). */
export class RecipientRecordVerdicts1796100036000 implements MigrationInterface {
  name = 'RecipientRecordVerdicts1796100036000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE recipient_record_verdicts (
        record_sha256 text NOT NULL,
        valid boolean NOT NULL,
        judged_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT recipient_record_verdicts_pkey PRIMARY KEY (record_sha256)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE recipient_record_verdicts`);
  }
}
