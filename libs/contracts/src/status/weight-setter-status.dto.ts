import { ApiProperty } from '@nestjs/swagger';
import { ApiBoolean, ApiDateTime, ApiInteger, ApiIntegerOrNull, ApiNumber, ApiText, ApiTextOrNull } from '../common/api-fields';

export enum WeightsPassOutcome {
  Set = 'set',
  /** Commit-reveal is on: the vector was committed as timelocked weights; its reveal is confirmed later (`last_reveal`). */
  Committed = 'committed',
  Skipped = 'skipped',
  Failed = 'failed',
  DryRun = 'dry_run',
}

/** One weight of a pass's vector. */
export class WeightsPassEntryDto {
  @ApiInteger('Subnet uid.')
  uid!: number;

  @ApiTextOrNull('Hotkey (SS58) holding the uid; null when the metagraph has none.')
  hotkey!: string | null;

  @ApiNumber('Fraction of the whole vector (the fractions sum to 1).')
  weight!: number;

  @ApiInteger('The u16 value sent to the chain (largest → 65535).')
  value!: number;
}

/** A timelocked commit of a pass (commit-reveal on). */
export class WeightsCommitDto {
  @ApiInteger('The drand round the commit is sealed to: the chain opens it with that round\'s pulse.')
  reveal_round!: number;

  @ApiInteger('The block from which the chain is expected to have revealed it.')
  reveal_block!: number;

  @ApiText('The `commit` argument of `commit_timelocked_weights` (0x hex of the `tle` ciphertext).')
  ciphertext!: string;

  @ApiText('Hash of the `commit_timelocked_weights` extrinsic.')
  tx_hash!: string;

  @ApiInteger('Block the commit was included in.')
  block!: number;
}

export enum WeightsRevealOutcome {
  Revealed = 'revealed',
  RevealMissed = 'reveal_missed',
}

/** How the last commit's reveal ended. */
export class WeightsRevealDto {
  @ApiInteger('The interval whose pass committed it.')
  interval!: number;

  @ApiProperty({
    description: '`revealed`: the chain holds the committed vector; `reveal_missed`: the reveal epoch passed and the chain dropped or never opened the commit.',
    enum: WeightsRevealOutcome,
    enumName: 'WeightsRevealOutcome',
  })
  outcome!: WeightsRevealOutcome;

  @ApiInteger('`revealed`: the block the weights were revealed in (`LastUpdate`); `reveal_missed`: the block at which it was found missing.')
  block!: number;

  @ApiProperty({ description: 'The committed vector, uids ascending.', type: () => [WeightsPassEntryDto] })
  weights!: WeightsPassEntryDto[];
}

/** The last pass of the weight setter (DECISIONS §12). */
export class WeightsPassDto {
  @ApiDateTime('When the pass ended.')
  at!: string;

  @ApiProperty({ description: '`set`, `committed` (commit-reveal on), `skipped` (rate limit, a reveal pending), `failed` or `dry_run`.', enum: WeightsPassOutcome, enumName: 'WeightsPassOutcome' })
  outcome!: WeightsPassOutcome;

  @ApiTextOrNull('Why it was skipped or failed, starting with a code (e.g. `commit_reveal_unsupported`, `rate_limited`, `snapshot_unavailable`).')
  reason!: string | null;

  @ApiTextOrNull('`validator_weights.mode` of the snapshot; null when no snapshot was read.')
  mode!: string | null;

  @ApiTextOrNull('`generated_at` of the snapshot the pass used.')
  snapshot_generated_at!: string | null;

  @ApiProperty({ description: 'The vector, uids ascending (empty when none was computed).', type: () => [WeightsPassEntryDto] })
  weights!: WeightsPassEntryDto[];

  @ApiTextOrNull('Hash of the `set_weights` or `commit_timelocked_weights` extrinsic.')
  tx_hash!: string | null;

  @ApiIntegerOrNull('Block the extrinsic was included in.')
  block!: number | null;

  @ApiProperty({ description: 'The timelocked commit of a `committed` pass; null otherwise.', type: () => WeightsCommitDto, nullable: true })
  commit!: WeightsCommitDto | null;
}

/** `GET /status` of the weight setter. */
export class WeightSetterStatusDto {
  @ApiText('The validator hotkey (SS58, prefix 42).')
  hotkey!: string;

  @ApiBoolean('Whether this process holds the one-owner-per-hotkey lock (false: standby).')
  owner!: boolean;

  @ApiProperty({ description: 'The last pass of whichever process owned the hotkey; null before the first.', type: () => WeightsPassDto, nullable: true })
  last_pass!: WeightsPassDto | null;

  @ApiIntegerOrNull('First block at which the chain accepts new weights from this hotkey, when known.')
  next_allowed_block!: number | null;

  @ApiProperty({ description: 'How the reveal of the last confirmed commit ended; null before the first.', type: () => WeightsRevealDto, nullable: true })
  last_reveal!: WeightsRevealDto | null;
}
