import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** A pool miner, keyed by its canonical hotkey (DECISIONS.md §2 Identity, §11 Miners). */
@Entity({ name: 'miners' })
export class MinerEntity {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'miners_pkey' })
  hotkey!: string;

  @CreateDateColumn({ type: 'timestamptz' })
  registeredAt!: Date;

  @Column({ type: 'timestamptz', default: () => 'now()' })
  lastSeenAt!: Date;

  /** Where the next published leaf pays; set by the three governing recipient routes. */
  @Column({ type: 'text', nullable: true })
  recipientColdkey!: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  recipientUpdatedAt!: Date | null;

  /** Recorded by the root compatibility route only; never governs claims (spec 001). */
  @Column({ type: 'text', nullable: true })
  declaredColdkey!: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  declaredAt!: Date | null;
}
