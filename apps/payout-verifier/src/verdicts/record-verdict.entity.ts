import { Column, Entity } from 'typeorm';
import { PrimaryKey, TimestampColumn } from '@rcs/persistence';

/**
 * Whether a miner signed one recipient record (DECISIONS §16), kept so a restarted verifier does not
 * check the same signature again: a record never changes, and its key is the SHA-256 of every byte
 * its verdict depends on (`recordKey`: the hotkey, the timestamp, both coldkeys and the signature).
 */
@Entity({ name: 'recipient_record_verdicts' })
export class RecordVerdictEntity {
  @PrimaryKey('text', 'recipient_record_verdicts_pkey')
  recordSha256!: string;

  @Column({ type: 'boolean' })
  valid!: boolean;

  @TimestampColumn({ default: () => 'now()' })
  judgedAt!: Date;
}
