import { Check, Entity } from 'typeorm';
import { IntegerColumn, JsonbColumn, nullable, PrimaryKey, TextColumn, TimestampColumn, UpdatedAt } from '@rcs/persistence';

export const VERDICT_RESULTS = ['verified', 'mismatch', 'unverified'] as const;
export type VerdictResult = (typeof VERDICT_RESULTS)[number];

/** `pending`: decided, not yet included; `included`: the contract holds it; `none`: nothing to challenge. */
export const CHALLENGE_STATES = ['none', 'pending', 'included'] as const;
export type ChallengeState = (typeof CHALLENGE_STATES)[number];

/**
 * What the verifier decided about one published epoch (DECISIONS §16). `verified` and `mismatch`
 * are final (a restart never judges them again); `unverified` is retried.
 */
@Entity({ name: 'epoch_verdicts' })
@Check('epoch_verdicts_result_check', `result IN ('verified', 'mismatch', 'unverified')`)
@Check('epoch_verdicts_challenge_check', `challenge IN ('none', 'pending', 'included')`)
export class EpochVerdictEntity {
  @PrimaryKey('integer', 'epoch_verdicts_pkey')
  epoch!: number;

  @TextColumn()
  result!: VerdictResult;

  /** The check that failed (`mismatch`) or the input that could not be read (`unverified`). */
  @TextColumn(nullable)
  check!: string | null;

  @TextColumn(nullable)
  detail!: string | null;

  @TextColumn(nullable)
  allocationSha256!: string | null;

  @TextColumn(nullable)
  snapshotSha256!: string | null;

  /** A verified epoch's cumulative rao per hotkey (decimal strings): the next epoch adds to it. */
  @JsonbColumn(nullable)
  cumulative!: Record<string, string> | null;

  @TextColumn(nullable)
  carriedOver!: string | null;

  /** The evidence document of a mismatch, byte for byte as `/evidence/{epoch}` serves it. */
  @TextColumn(nullable)
  evidence!: string | null;

  /** `0x` + blake2b-256 of `evidence`: what `challenge_epoch` sends. */
  @TextColumn(nullable)
  evidenceHash!: string | null;

  @TextColumn({ default: 'none' })
  challenge!: ChallengeState;

  @IntegerColumn(nullable)
  challengeBlock!: number | null;

  @TextColumn(nullable)
  challengeTx!: string | null;

  @TextColumn(nullable)
  challengeError!: string | null;

  /** Passes that could not judge the epoch (each counted as `unverified`). */
  @IntegerColumn({ default: 0 })
  unverifiedAttempts!: number;

  @TimestampColumn({ default: () => 'now()' })
  judgedAt!: Date;

  @UpdatedAt()
  updatedAt!: Date;
}
