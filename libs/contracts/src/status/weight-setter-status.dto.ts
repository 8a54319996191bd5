import { ApiProperty } from '@nestjs/swagger';
import { ApiBoolean, ApiDateTime, ApiInteger, ApiIntegerOrNull, ApiNumber, ApiText, ApiTextOrNull } from '../common/api-fields';

export enum WeightsPassOutcome {
  Set = 'set',
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

/** The last pass of the weight setter (DECISIONS §12). */
export class WeightsPassDto {
  @ApiDateTime('When the pass ended.')
  at!: string;

  @ApiProperty({ description: '`set`, `skipped` (rate limit), `failed` or `dry_run`.', enum: WeightsPassOutcome, enumName: 'WeightsPassOutcome' })
  outcome!: WeightsPassOutcome;

  @ApiTextOrNull('Why it was skipped or failed, starting with a code (e.g. `commit_reveal_unsupported`, `rate_limited`, `snapshot_unavailable`).')
  reason!: string | null;

  @ApiTextOrNull('`validator_weights.mode` of the snapshot; null when no snapshot was read.')
  mode!: string | null;

  @ApiTextOrNull('`generated_at` of the snapshot the pass used.')
  snapshot_generated_at!: string | null;

  @ApiProperty({ description: 'The vector, uids ascending (empty when none was computed).', type: () => [WeightsPassEntryDto] })
  weights!: WeightsPassEntryDto[];

  @ApiTextOrNull('Hash of the `set_weights` extrinsic.')
  tx_hash!: string | null;

  @ApiIntegerOrNull('Block the extrinsic was included in.')
  block!: number | null;
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
}
