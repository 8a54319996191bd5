import { Entity, PrimaryColumn } from 'typeorm';
import { CreatedAt, TextColumn, TimestampColumn } from '@rcs/persistence';

/** A pool miner, keyed by its canonical hotkey (DECISIONS.md §2 Identity, §11 Miners). */
@Entity({ name: 'miners' })
export class MinerEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'miners_pkey' })
  hotkey!: string;

  @CreatedAt()
  registeredAt!: Date;

  @TimestampColumn({ default: () => 'now()' })
  lastSeenAt!: Date;

  /** Where the next published leaf pays; set by the three governing recipient routes. */
  @TextColumn({ nullable: true })
  recipientColdkey!: string | null;

  @TimestampColumn({ nullable: true })
  recipientUpdatedAt!: Date | null;

  /** Recorded by the root compatibility route only; never governs claims (spec 001). */
  @TextColumn({ nullable: true })
  declaredColdkey!: string | null;

  @TimestampColumn({ nullable: true })
  declaredAt!: Date | null;
}
