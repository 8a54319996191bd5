import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { ApiNumberOrNull } from '../common/api-fields';

const DECIMAL_U64 = /^(0|[1-9][0-9]{0,19})$/;
const HASH = /^0x[0-9a-fA-F]{64}$/;
/** Integers arrive as JSON numbers from some clients: read them as the decimal string they mean. */
const decimal = ({ value }: { value: unknown }) => (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? String(value) : value);

/** `GET /claims/epochs` (compat). */
export class ClaimEpochListDto {
  @ApiProperty({ type: [Number], description: 'Stored epochs, newest first.' })
  epochs!: number[];

  @ApiNumberOrNull('The claimable epoch: the latest published (the latest stored when publication is off).')
  default_epoch!: number | null;
}

/** `GET /claims/epoch[/{epoch}]` (DECISIONS §8). */
export class ClaimEpochDto {
  @ApiProperty({ type: Number, description: 'Epoch id (= window number).' }) epoch!: number;
  @ApiProperty({ type: String, description: '0x BLAKE2b-256 root.' }) root!: string;
  @ApiProperty({ type: Number, description: 'Number of leaves.' }) leaf_count!: number;
  @ApiProperty({ type: String, description: 'Σ leaf amounts (rao, decimal).' }) total_amount!: string;
  @ApiProperty({ enum: ['pending', 'published', 'superseded', 'disputed'], description: 'Publication state: pending (stored, not on chain yet), published (claimable), superseded, disputed.' }) status!: 'pending' | 'published' | 'superseded' | 'disputed';
  @ApiProperty({ type: Number, nullable: true, description: 'Block of the publication (null when unknown or pending).' }) published_block!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'First block at which claims are accepted.' }) claims_open_at_block!: number | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time', description: 'When the pool recorded the publication.' }) published_at!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'SHA-256 of the reward snapshot bytes used.' }) snapshot_sha256!: string | null;
  @ApiProperty({ type: Boolean, description: 'The coordinator was unreachable: the last stored snapshot was used.' }) snapshot_stale!: boolean;
  @ApiProperty({ type: String, description: 'SHA-256 of the allocation document.' }) allocation_sha256!: string;
  @ApiProperty({ type: String, description: 'Where the allocation document is served (the `uri` of publish_epoch).' }) allocation_uri!: string;
  @ApiProperty({ enum: ['blake2b-256'], description: 'Hash function of the tree.' }) hash!: 'blake2b-256';
  @ApiProperty({ enum: ['rfc9162'], description: 'Tree shape.' }) tree!: 'rfc9162';
}

/** The proof package (DECISIONS §8); `amount` and `amount_units` are the same decimal string. */
export class ClaimPackageDto {
  @ApiProperty({ type: Number, description: 'Epoch id (= window number).' }) epoch!: number;
  @ApiProperty({ type: Number, description: 'Leaf index used in the proof.' }) index!: number;
  @ApiProperty({ type: String, description: 'Miner hotkey (SS58, prefix 42).' }) hotkey!: string;
  @ApiProperty({ type: String, description: 'Payout recipient published in the leaf.' }) recipient_coldkey!: string;
  @ApiProperty({ type: String, description: 'Cumulative rao (decimal).' }) amount!: string;
  @ApiProperty({ type: String, description: 'The same as `amount`.' }) amount_units!: string;
  @ApiProperty({ type: [String], description: 'Audit path, leaf to root (0x hashes).' }) proof!: string[];
  @ApiProperty({ type: String, description: '0x BLAKE2b-256 Merkle root.' }) root!: string;
  @ApiProperty({ type: Number, description: 'Number of leaves.' }) leaf_count!: number;
  @ApiProperty({ type: String, description: '0x hash of the leaf (BLAKE2b-256 of 0x00 ‖ leaf).' }) leaf_hash!: string;
}

/** `POST /claims/epoch[/{epoch}]/claim` (simulation only): a package as the routes serve it. */
export class SimulatedClaimRequestDto {
  @ApiPropertyOptional({ type: Number, description: 'Ignored when the path names the epoch; must agree when both are given.' })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  epoch?: number;

  @ApiProperty({ type: Number, minimum: 0, maximum: 4294967295, description: 'Leaf index used in the proof.' })
  @IsInt()
  @Min(0)
  @Max(4294967295)
  index!: number;

  @ApiProperty({ type: String, maxLength: 64, description: 'Miner hotkey (any SS58 spelling).' })
  @IsString()
  @MaxLength(64)
  hotkey!: string;

  @ApiProperty({ type: String, maxLength: 64, description: 'Recipient published in the leaf.' })
  @IsString()
  @MaxLength(64)
  recipient_coldkey!: string;

  @ApiPropertyOptional({ type: String, description: 'Cumulative rao (decimal); read before `amount_units`.' })
  @IsOptional()
  @Transform(decimal)
  @IsString()
  @Matches(DECIMAL_U64, { message: 'amount must be a decimal u64' })
  amount?: string;

  @ApiPropertyOptional({ type: String, description: 'The same as `amount`.' })
  @IsOptional()
  @Transform(decimal)
  @IsString()
  @Matches(DECIMAL_U64, { message: 'amount_units must be a decimal u64' })
  amount_units?: string;

  @ApiProperty({ type: [String], maxItems: 64, description: 'Audit path (0x hashes).' })
  @IsArray()
  @ArrayMaxSize(64)
  @IsString({ each: true })
  @Matches(HASH, { each: true, message: 'proof items must be 0x-prefixed 32-byte hashes' })
  proof!: string[];

  @ApiPropertyOptional({ type: String, description: 'Informational; the epoch root stored by the pool is used.' })
  @IsOptional()
  @IsString()
  @MaxLength(66)
  root?: string;

  @ApiPropertyOptional({ type: Number, description: 'Informational; the stored leaf count is used.' })
  @IsOptional()
  @IsInt()
  @Min(0)
  leaf_count?: number;

  @ApiPropertyOptional({ type: String, description: 'Checked against the leaf fields when present.' })
  @IsOptional()
  @IsString()
  @MaxLength(66)
  leaf_hash?: string;
}

export class SimulatedClaimDto {
  @ApiProperty({ enum: ['claimed'], description: 'Publication state: pending (stored, not on chain yet), published (claimable), superseded, disputed.' }) status!: 'claimed';
  @ApiProperty({ type: Number, description: 'Epoch id (= window number).' }) epoch!: number;
  @ApiProperty({ type: String, description: 'Miner hotkey (SS58, prefix 42).' }) hotkey!: string;
  @ApiProperty({ type: String, description: 'Payout recipient published in the leaf.' }) recipient_coldkey!: string;
  @ApiProperty({ type: String, description: 'Rao paid now: amount − claimed before.' }) paid!: string;
  @ApiProperty({ type: String, description: 'Claimed by the hotkey over all epochs, after this claim.' }) claimed_cumulative!: string;
  @ApiProperty({ type: Number, description: 'Block of the claim.' }) block!: number;
}

export class ClaimLedgerEntryDto {
  @ApiProperty({ type: String, description: 'Miner hotkey (SS58, prefix 42).' }) hotkey!: string;
  @ApiProperty({ type: String, description: 'Payout recipient published in the leaf.' }) recipient_coldkey!: string;
  @ApiProperty({ type: String, description: 'Cumulative rao of the leaf (decimal).' }) amount!: string;
  @ApiProperty({ type: String, description: 'Rao paid by this claim.' }) paid!: string;
  @ApiProperty({ type: Number, description: 'Block of the claim.' }) block!: number;
  @ApiProperty({ type: String, format: 'date-time', description: 'When the claim was recorded.' }) claimed_at!: string;
}

export class ClaimLedgerDto {
  @ApiProperty({ type: Number, description: 'Epoch id (= window number).' }) epoch!: number;
  @ApiProperty({ type: [ClaimLedgerEntryDto], description: 'Claims of the epoch, oldest first.' }) claims!: ClaimLedgerEntryDto[];
}

export class ClaimsHealthDto {
  @ApiProperty({ enum: ['ok'], description: 'Publication state: pending (stored, not on chain yet), published (claimable), superseded, disputed.' }) status!: 'ok';
  @ApiProperty({ type: Number, nullable: true, description: 'Latest stored epoch.' }) latest_epoch!: number | null;
  @ApiProperty({ type: Number, nullable: true, description: 'The claimable epoch.' }) default_epoch!: number | null;
  @ApiProperty({ type: Boolean, description: 'A publisher key is configured.' }) publication_enabled!: boolean;
  @ApiProperty({ type: Boolean, description: 'CLAIM_SIMULATION is on.' }) simulation!: boolean;
}

export class PublicationStatusDto {
  @ApiProperty({ type: Boolean, description: 'A publisher key is configured (PUBLISHER_MNEMONIC / PUBLISHER_SECRET_URI).' }) enabled!: boolean;
  @ApiProperty({ type: Number, nullable: true, description: 'The stored epoch waiting for publication.' }) pending_epoch!: number | null;
  @ApiProperty({ type: Number, description: 'Attempts made for the pending epoch.' }) attempts!: number;
  @ApiProperty({ type: String, nullable: true, description: 'Why the last attempt failed.' }) last_error!: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time', description: 'When publication was last attempted.' }) last_attempt_at!: string | null;
}

export class SnapshotStatusDto {
  @ApiProperty({ type: String, nullable: true, format: 'date-time', description: 'When a snapshot was last fetched.' }) last_fetched_at!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'Why the last fetch failed.' }) last_error!: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time', description: 'When the last fetch failed.' }) last_error_at!: string | null;
  @ApiProperty({ type: Number, nullable: true, description: 'The last window that got no epoch for want of a snapshot.' }) unavailable_window!: number | null;
}

export class PayoutStatusDto {
  @ApiProperty({ type: Number, nullable: true, description: 'Latest stored epoch (published or not).' }) latest_stored_epoch!: number | null;
  @ApiProperty({ type: () => PublicationStatusDto, description: 'Publication of the latest stored epoch.' }) publication!: PublicationStatusDto;
  @ApiProperty({ type: () => SnapshotStatusDto, description: 'Fetching the coordinator snapshot.' }) snapshot!: SnapshotStatusDto;
}
