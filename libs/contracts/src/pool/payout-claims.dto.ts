import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { stacked } from '../common/request-fields';
import { ApiBoolean, ApiDateTime, ApiDateTimeOrNull, ApiNumber, ApiNumberOrNull, ApiText, ApiTextOrNull } from '../common/api-fields';

const DECIMAL_U64 = /^(0|[1-9][0-9]{0,19})$/;
const HASH = /^0x[0-9a-fA-F]{64}$/;
/** Integers arrive as JSON numbers from some clients: read them as the decimal string they mean. */
const decimal = ({ value }: { value: unknown }) => (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? String(value) : value);

/** An optional rao amount: a decimal u64 string (or a JSON integer, read as one). */
function OptionalRao(description: string): PropertyDecorator {
  return stacked(
    ApiPropertyOptional({ type: String, description }),
    IsOptional(),
    Transform(decimal),
    IsString(),
    Matches(DECIMAL_U64, { message: ({ property }) => `${property} must be a decimal u64` }),
  );
}

/** `GET /claims/epochs` (compat). */
export class ClaimEpochListDto {
  @ApiProperty({ type: [Number], description: 'Stored epochs, newest first.' })
  epochs!: number[];

  @ApiNumberOrNull('The claimable epoch: the latest published (the latest stored when publication is off).')
  default_epoch!: number | null;
}

/** `GET /claims/retained-snapshots` (DECISIONS §16): the reward snapshots the coordinator must keep. */
export class RetainedSnapshotsDto {
  @ApiNumberOrNull('The oldest epoch with a leaf whose amount exceeds what the pool\'s ledger holds as paid to its hotkey; null when none (then the newest epoch\'s snapshot alone is named).')
  oldest_unclaimed_epoch!: number | null;

  @ApiProperty({ type: [String], description: 'Lowercase hex SHA-256 of every reward snapshot named by that epoch or a later one: the coordinator never prunes these.' })
  snapshot_sha256!: string[];
}

/** `GET /claims/epoch[/{epoch}]` (DECISIONS §8). */
export class ClaimEpochDto {
  @ApiNumber('Epoch id (= window number).')
  epoch!: number;
  @ApiText('0x BLAKE2b-256 root.')
  root!: string;
  @ApiNumber('Number of leaves.')
  leaf_count!: number;
  @ApiText('Σ leaf amounts (rao, decimal).')
  total_amount!: string;
  @ApiProperty({ enum: ['pending', 'published', 'superseded', 'disputed'], description: 'Publication state: pending (stored, not on chain yet), published (claimable), superseded, disputed.' })
  status!: 'pending' | 'published' | 'superseded' | 'disputed';
  @ApiNumberOrNull('Block of the publication (null when unknown or pending).')
  published_block!: number | null;
  @ApiNumberOrNull('First block at which claims are accepted.')
  claims_open_at_block!: number | null;
  @ApiDateTimeOrNull('When the pool recorded the publication.')
  published_at!: string | null;
  @ApiTextOrNull('SHA-256 of the reward snapshot bytes used.')
  snapshot_sha256!: string | null;
  @ApiBoolean('The coordinator was unreachable: the last stored snapshot was used.')
  snapshot_stale!: boolean;
  @ApiText('SHA-256 of the allocation document.')
  allocation_sha256!: string;
  @ApiText('Where the allocation document is served (the `uri` of publish_epoch).')
  allocation_uri!: string;
  @ApiProperty({ enum: ['blake2b-256'], description: 'Hash function of the tree.' })
  hash!: 'blake2b-256';
  @ApiProperty({ enum: ['rfc9162'], description: 'Tree shape.' })
  tree!: 'rfc9162';
}

/** What the claim contract has paid a hotkey so far (its `claimed_cumulative`, the record of payment). */
export class ClaimedCumulativeDto {
  @ApiText('Miner hotkey (SS58, prefix 42; canonical whatever spelling was asked).')
  hotkey!: string;
  @ApiText("Rao the contract has paid for this hotkey over every epoch (decimal); \"0\" when it never paid it.")
  claimed_cumulative!: string;
}

/** The proof package (DECISIONS §8); `amount` and `amount_units` are the same decimal string. */
export class ClaimPackageDto {
  @ApiNumber('Epoch id (= window number).')
  epoch!: number;
  @ApiNumber('Leaf index used in the proof.')
  index!: number;
  @ApiText('Miner hotkey (SS58, prefix 42).')
  hotkey!: string;
  @ApiText('Payout recipient published in the leaf.')
  recipient_coldkey!: string;
  @ApiText('Cumulative rao (decimal).')
  amount!: string;
  @ApiText('The same as `amount`.')
  amount_units!: string;
  @ApiProperty({ type: [String], description: 'Audit path, leaf to root (0x hashes).' })
  proof!: string[];
  @ApiText('0x BLAKE2b-256 Merkle root.')
  root!: string;
  @ApiNumber('Number of leaves.')
  leaf_count!: number;
  @ApiText('0x hash of the leaf (BLAKE2b-256 of 0x00 ‖ leaf).')
  leaf_hash!: string;
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

  @OptionalRao('Cumulative rao (decimal); read before `amount_units`.')
  amount?: string;

  @OptionalRao('The same as `amount`.')
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
  @ApiProperty({ enum: ['claimed'], description: 'Publication state: pending (stored, not on chain yet), published (claimable), superseded, disputed.' })
  status!: 'claimed';
  @ApiNumber('Epoch id (= window number).')
  epoch!: number;
  @ApiText('Miner hotkey (SS58, prefix 42).')
  hotkey!: string;
  @ApiText('Payout recipient published in the leaf.')
  recipient_coldkey!: string;
  @ApiText('Rao paid now: amount − claimed before.')
  paid!: string;
  @ApiText('Claimed by the hotkey over all epochs, after this claim.')
  claimed_cumulative!: string;
  @ApiNumber('Block of the claim.')
  block!: number;
}

export class ClaimLedgerEntryDto {
  @ApiText('Miner hotkey (SS58, prefix 42).')
  hotkey!: string;
  @ApiText('Payout recipient published in the leaf.')
  recipient_coldkey!: string;
  @ApiText('Cumulative rao of the leaf (decimal).')
  amount!: string;
  @ApiText('Rao paid by this claim.')
  paid!: string;
  @ApiNumber('Block of the claim (of the reconciliation, for a reconciled row).')
  block!: number;
  @ApiBoolean('Written from the contract\'s claimed cumulative because the claim\'s own row was lost (e.g. the database failed after the contract paid).')
  reconciled!: boolean;
  @ApiDateTime('When the claim was recorded.')
  claimed_at!: string;
}

export class ClaimLedgerDto {
  @ApiNumber('Epoch id (= window number).')
  epoch!: number;
  @ApiProperty({ type: [ClaimLedgerEntryDto], description: 'Claims of the epoch, oldest first.' })
  claims!: ClaimLedgerEntryDto[];
}

export class ClaimsHealthDto {
  @ApiProperty({ enum: ['ok'], description: 'Publication state: pending (stored, not on chain yet), published (claimable), superseded, disputed.' })
  status!: 'ok';
  @ApiNumberOrNull('Latest stored epoch.')
  latest_epoch!: number | null;
  @ApiNumberOrNull('The claimable epoch.')
  default_epoch!: number | null;
  @ApiBoolean('A publisher key is configured.')
  publication_enabled!: boolean;
  @ApiBoolean('CLAIM_SIMULATION is on.')
  simulation!: boolean;
}

export class PublicationStatusDto {
  @ApiBoolean('A publisher key is configured (PUBLISHER_MNEMONIC / PUBLISHER_SECRET_URI).')
  enabled!: boolean;
  @ApiNumberOrNull('The stored epoch waiting for publication.')
  pending_epoch!: number | null;
  @ApiNumber('Attempts made for the pending epoch.')
  attempts!: number;
  @ApiTextOrNull('Why the last attempt failed.')
  last_error!: string | null;
  @ApiDateTimeOrNull('When publication was last attempted.')
  last_attempt_at!: string | null;
}

export class SnapshotStatusDto {
  @ApiDateTimeOrNull('When a snapshot was last fetched.')
  last_fetched_at!: string | null;
  @ApiTextOrNull('Why the last fetch failed.')
  last_error!: string | null;
  @ApiDateTimeOrNull('When the last fetch failed.')
  last_error_at!: string | null;
  @ApiNumberOrNull('The last window that got no epoch for want of a snapshot.')
  unavailable_window!: number | null;
}

export class PayoutStatusDto {
  @ApiNumberOrNull('Latest stored epoch (published or not).')
  latest_stored_epoch!: number | null;
  @ApiProperty({ type: () => PublicationStatusDto, description: 'Publication of the latest stored epoch.' })
  publication!: PublicationStatusDto;
  @ApiProperty({ type: () => SnapshotStatusDto, description: 'Fetching the coordinator snapshot.' })
  snapshot!: SnapshotStatusDto;
}
