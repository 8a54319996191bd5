import { Entity } from 'typeorm';
import { CreatedAt, nullable, PrimaryKey, TextColumn, TimestampColumn } from '@rcs/persistence';

/** A pool miner, keyed by its canonical hotkey (DECISIONS.md §2 Identity, §11 Miners). */
@Entity({ name: 'miners' })
export class MinerEntity {
  @PrimaryKey('text', 'miners_pkey')
  hotkey!: string;

  @CreatedAt()
  registeredAt!: Date;

  @TimestampColumn({ default: () => 'now()' })
  lastSeenAt!: Date;

  /** Where the next published leaf pays; set by the three governing recipient routes, which take precedence over `declaredColdkey`. */
  @TextColumn(nullable)
  recipientColdkey!: string | null;

  @TimestampColumn(nullable)
  recipientUpdatedAt!: Date | null;

  /**
   * Recorded by the root compatibility route only; it never overrides `recipientColdkey` (spec 001), but a
   * miner without a stored recipient is paid to it (DECISIONS.md §11, compat with BitSota's GUI).
   */
  @TextColumn(nullable)
  declaredColdkey!: string | null;

  @TimestampColumn(nullable)
  declaredAt!: Date | null;
}
