import { ApiProperty } from '@nestjs/swagger';

export enum WeightsPassOutcome {
  Set = 'set',
  Skipped = 'skipped',
  Failed = 'failed',
  DryRun = 'dry_run',
}

/** One weight of a pass's vector. */
export class WeightsPassEntryDto {
  @ApiProperty({ description: 'Subnet uid.', type: 'integer' })
  uid!: number;

  @ApiProperty({ description: 'Hotkey (SS58) holding the uid; null when the metagraph has none.', type: String, nullable: true })
  hotkey!: string | null;

  @ApiProperty({ description: 'Fraction of the whole vector (the fractions sum to 1).', type: Number })
  weight!: number;

  @ApiProperty({ description: 'The u16 value sent to the chain (largest → 65535).', type: 'integer' })
  value!: number;
}

/** The last pass of the weight setter (DECISIONS §12). */
export class WeightsPassDto {
  @ApiProperty({ description: 'When the pass ended.', type: String, format: 'date-time' })
  at!: string;

  @ApiProperty({ description: '`set`, `skipped` (rate limit), `failed` or `dry_run`.', enum: WeightsPassOutcome, enumName: 'WeightsPassOutcome' })
  outcome!: WeightsPassOutcome;

  @ApiProperty({ description: 'Why it was skipped or failed, starting with a code (e.g. `commit_reveal_unsupported`, `rate_limited`, `snapshot_unavailable`).', type: String, nullable: true })
  reason!: string | null;

  @ApiProperty({ description: '`validator_weights.mode` of the snapshot; null when no snapshot was read.', type: String, nullable: true })
  mode!: string | null;

  @ApiProperty({ description: '`generated_at` of the snapshot the pass used.', type: String, nullable: true })
  snapshot_generated_at!: string | null;

  @ApiProperty({ description: 'The vector, uids ascending (empty when none was computed).', type: () => [WeightsPassEntryDto] })
  weights!: WeightsPassEntryDto[];

  @ApiProperty({ description: 'Hash of the `set_weights` extrinsic.', type: String, nullable: true })
  tx_hash!: string | null;

  @ApiProperty({ description: 'Block the extrinsic was included in.', type: 'integer', nullable: true })
  block!: number | null;
}

/** `GET /status` of the weight setter. */
export class WeightSetterStatusDto {
  @ApiProperty({ description: 'The validator hotkey (SS58, prefix 42).', type: String })
  hotkey!: string;

  @ApiProperty({ description: 'Whether this process holds the one-owner-per-hotkey lock (false: standby).', type: Boolean })
  owner!: boolean;

  @ApiProperty({ description: 'The last pass of whichever process owned the hotkey; null before the first.', type: () => WeightsPassDto, nullable: true })
  last_pass!: WeightsPassDto | null;

  @ApiProperty({ description: 'First block at which the chain accepts new weights from this hotkey, when known.', type: 'integer', nullable: true })
  next_allowed_block!: number | null;
}
