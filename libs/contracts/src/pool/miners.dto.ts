import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { ApiDateTime, ApiDateTimeOrNull, ApiInteger, ApiIntegerOrNull, ApiNumber, ApiText, ApiTextOrNull } from '../common/api-fields';
import { DEFAULT_PAGE_LIMIT, PageLimit } from '../common/page-query.dto';

/*
 * Pool request models ignore unknown properties (DECISIONS.md §2 Pool, compat: BitSota clients repeat
 * `public_address`, `signature`, `message` and send `evaluation_metrics`, `metadata`); known fields are bounded.
 */

/** Body of the three governing recipient routes and the root compatibility route. */
export class RecipientUpdateDto {
  @ApiPropertyOptional({ type: String, description: 'New recipient coldkey (SS58, any prefix); the signature covers it as sent.', maxLength: 128 })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  recipient_coldkey?: string;

  @ApiPropertyOptional({ type: String, description: 'Legacy alias of `recipient_coldkey`.', maxLength: 128 })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  coldkey_address?: string;
}

/** `GET /api/v1/miners/leaderboard`. */
export class LeaderboardQueryDto {
  @PageLimit('Rows.')
  limit = DEFAULT_PAGE_LIMIT;
}

/** `POST /api/v1/miners/register`. */
export class PoolMinerDto {
  @ApiText('Miner hotkey (canonical SS58, prefix 42).')
  hotkey!: string;
  @ApiDateTime('First registration.')
  registered_at!: string;
  @ApiDateTime('Last signed request.')
  last_seen_at!: string;
  @ApiNumber('Current decayed reputation (≥ 0).')
  reputation!: number;
  @ApiTextOrNull('Stored payout recipient coldkey.')
  recipient_coldkey!: string | null;
}

/** The miner's open assignment, if any. */
export class ActiveAssignmentDto {
  @ApiText('Batch or lease id.')
  id!: string;
  @ApiProperty({ description: 'What it is.', enum: ['evolve', 'evaluate', 'lease'] })
  kind!: string;
  @ApiDateTime('When it expires.')
  timeout_at!: string;
}

export class MinerStatsMinerDto {
  @ApiText('Miner hotkey (canonical SS58).')
  hotkey!: string;
  @ApiNumber('Current decayed reputation (≥ 0).')
  reputation!: number;
  @ApiInteger('Evaluations submitted.')
  evaluations!: number;
  @ApiInteger('Evaluations found in consensus.')
  evaluations_in_consensus!: number;
  @ApiInteger('Algorithms evolved.')
  evolutions!: number;
  @ApiInteger('Evolved algorithms that were scored.')
  evolutions_scored!: number;
  @ApiProperty({ type: () => ActiveAssignmentDto, nullable: true, description: 'The open batch or lease.' })
  active_assignment!: ActiveAssignmentDto | null;
  @ApiDateTime('Last signed request.')
  last_seen_at!: string;
  @ApiTextOrNull('Stored payout recipient coldkey.')
  recipient_coldkey!: string | null;
}

export class PoolSummaryDto {
  @ApiInteger('Registered miners.')
  miners!: number;
  @ApiInteger('Miners seen in the last 24 h.')
  active_miners_24h!: number;
  @ApiInteger('Algorithms stored.')
  algorithms!: number;
  @ApiInteger('Algorithms still waiting for consensus.')
  pending_evaluations!: number;
  @ApiIntegerOrNull('Current payout window (null when the chain is unreachable).')
  window_number!: number | null;
  @ApiIntegerOrNull('Latest published epoch, as `/status` says it (null until one is published).')
  latest_epoch!: number | null;
}

/** `GET /api/v1/miners/stats`. */
export class MinerStatsDto {
  @ApiProperty({ type: () => MinerStatsMinerDto, description: 'The signing miner.' })
  miner!: MinerStatsMinerDto;
  @ApiProperty({ type: () => PoolSummaryDto, description: 'The pool as a whole.' })
  pool!: PoolSummaryDto;
}

/** One row of `GET /api/v1/miners/leaderboard`. */
export class LeaderboardEntryDto {
  @ApiInteger('1-based rank (reputation, then hotkey).')
  rank!: number;
  @ApiText('Miner hotkey.')
  hotkey!: string;
  @ApiNumber('Decayed reputation.')
  reputation!: number;
  @ApiInteger('Evaluations submitted.')
  evaluations!: number;
  @ApiInteger('Algorithms evolved.')
  evolutions!: number;
  @ApiDateTime('Last signed request.')
  last_seen_at!: string;
}

/** 200 of the three governing recipient routes. */
export class RecipientUpdatedDto {
  @ApiProperty({ type: String, description: 'Always `updated`.', example: 'updated' })
  status!: 'updated';
  @ApiText('Miner hotkey.')
  hotkey!: string;
  @ApiText('Stored recipient (canonical SS58).')
  recipient_coldkey!: string;
  @ApiDateTime('When it was stored.')
  updated_at!: string;
}

/** `GET /api/v1/miners/recipient-coldkey[/{miner_hotkey}]`. */
export class RecipientDto {
  @ApiText('Miner hotkey (canonical SS58).')
  hotkey!: string;
  @ApiTextOrNull('Stored recipient: where the next published leaf pays.')
  recipient_coldkey!: string | null;
  @ApiDateTimeOrNull('When the recipient was stored.')
  updated_at!: string | null;
  @ApiIntegerOrNull('Newest published epoch whose leaf pays the recipient in effect (`recipient_coldkey`, else `declared_coldkey`); null until one does.')
  published_in_epoch!: number | null;
  @ApiTextOrNull('Coldkey declared on the root compatibility route: paid while no recipient is stored, never overriding one.')
  declared_coldkey!: string | null;
}

/** One signed recipient record as the pool stored it (DECISIONS §16): enough for anyone to check the miner signed it. */
export class RecipientRecordDto {
  @ApiText('The coldkey (canonical SS58).')
  recipient_coldkey!: string;
  @ApiText('The coldkey exactly as signed (the message is `recipient_coldkey:update:{timestamp}:{signed_coldkey}`).')
  signed_coldkey!: string;
  @ApiText('The signed `X-Timestamp` (unix seconds).')
  timestamp!: string;
  @ApiText('The miner hotkey’s sr25519 signature (hex).')
  signature!: string;
  @ApiText('The route that stored it.')
  route!: string;
  @ApiProperty({ enum: ['recipient', 'declared'], description: '`recipient`: a governing route; `declared`: the root compatibility route (paid only while no recipient is stored).' })
  kind!: 'recipient' | 'declared';
  @ApiDateTime('When the pool stored it.')
  recorded_at!: string;
}

/** `GET /api/v1/miners/recipient-coldkey/{hotkey}/history`: every recipient change of a miner, oldest first. */
export class RecipientHistoryDto {
  @ApiText('Miner hotkey (canonical SS58).')
  hotkey!: string;
  @ApiProperty({ type: [RecipientRecordDto], description: 'Every recipient record the pool stored for the hotkey, with the signature it was accepted on, oldest first.' })
  records!: RecipientRecordDto[];
}

/** 200 of the root `POST /coldkey_address/update` (compat). */
export class ColdkeyDeclaredDto {
  @ApiProperty({ type: String, description: 'Always `success` (compat).', example: 'success' })
  status!: 'success';
  @ApiText('The declared coldkey (canonical SS58).')
  coldkey_address!: string;
}
