import { ApiProperty } from '@nestjs/swagger';
import { PayoutStatusDto } from './claims.dto';
import { ApiBoolean, ApiDateTime, ApiDateTimeOrNull, ApiInteger, ApiIntegerOrNull, ApiNumber, ApiText, ApiTextOrNull } from '../common/api-fields';

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

/** An algorithm handed out in a batch or lease. */
export class PoolAlgorithmDto {
  @ApiInteger('Algorithm id.')
  id!: number;
  @ApiText('Algorithm DSL (opaque to the pool).')
  algorithm_dsl!: string;
  @ApiInteger('Input dimension.')
  input_dim!: number;
  @ApiText('Benchmark task type.')
  task_type!: string;
}

/** `POST /api/v1/tasks/request`. */
export class PoolBatchDto {
  @ApiText('Batch id (submit to it).')
  batch_id!: string;
  @ApiProperty({ description: '`evolve` or `evaluate`.', enum: ['evolve', 'evaluate'] })
  task_type!: string;
  @ApiProperty({ type: [PoolAlgorithmDto], description: 'Algorithms to evaluate, or parents to evolve.' })
  algorithms!: PoolAlgorithmDto[];
  @ApiDateTime('When the batch expires.')
  timeout_at!: string;
}

export class GossipDto {
  @ApiText('Task type of the gossiped algorithms.')
  task_type!: string;
  @ApiProperty({ type: [Number], description: 'Ids of the best scored algorithms.' })
  algorithm_ids!: number[];
}

/** `POST /api/v1/tasks/lease`. */
export class PoolLeaseDto {
  @ApiText('Lease id (submit to it).')
  lease_id!: string;
  @ApiInteger('Window the lease belongs to (one lease per miner per window).')
  window_number!: number;
  @ApiDateTime('When the lease expires (ISO 8601, Z).')
  timeout_at!: string;
  @ApiInteger('Evolutions the lease accepts (POOL_LEASE_EVOLVE_BUDGET).')
  evolve_budget!: number;
  @ApiProperty({ type: [PoolAlgorithmDto], description: 'Algorithms to evaluate.' })
  evaluate_algorithms!: PoolAlgorithmDto[];
  @ApiProperty({ type: [PoolAlgorithmDto], description: 'Parents offered for evolution.' })
  seed_algorithms!: PoolAlgorithmDto[];
  @ApiProperty({ type: () => GossipDto, description: 'Best scored algorithms of the task type.' })
  gossip!: GossipDto;
}

/** `POST …/submit_evolution`. */
export class EvolutionAcceptedDto {
  @ApiProperty({
    type: String,
    enum: ['accepted', 'duplicate'],
    description: '`accepted`: a new algorithm; `duplicate`: its canonical DSL already exists (not created, not rewarded). The batch is done either way.',
    example: 'accepted',
  })
  status!: 'accepted' | 'duplicate';
  @ApiInteger('Id of the new algorithm, or of the existing one it duplicates.')
  algorithm_id!: number;
}

/** `POST …/submit_evaluation`. */
export class EvaluationAcceptedDto {
  @ApiProperty({ type: String, description: 'Always `accepted`.', example: 'accepted' })
  status!: 'accepted';
  @ApiInteger('Evaluations recorded.')
  recorded!: number;
}

/** `POST …/submit_lease`. */
export class LeaseAcceptedDto {
  @ApiProperty({ type: String, description: 'Always `accepted`.', example: 'accepted' })
  status!: 'accepted';
  @ApiInteger('Evaluations recorded.')
  recorded_evaluations!: number;
  @ApiProperty({ type: [Number], description: 'Ids of the algorithms the evolutions created.' })
  created_algorithm_ids!: number[];
  @ApiProperty({ type: [Number], description: 'Ids of existing algorithms that evolutions duplicated (not created, not rewarded; the evaluations still count).' })
  duplicate_algorithm_ids!: number[];
}

/** `GET /api/v1/tasks/pending_evaluations`. */
export class PendingEvaluationsDto {
  @ApiBoolean('Whether an evaluation batch would find work for the signer.')
  has_pending_evaluations!: boolean;
  @ApiInteger('Pending algorithms the signer may evaluate.')
  count!: number;
}

/** One row of `GET /api/v1/results/`. */
export class PoolResultDto {
  @ApiInteger('Result id.')
  id!: number;
  @ApiInteger('Algorithm id.')
  algorithm_id!: number;
  @ApiText('Benchmark task type.')
  task_type!: string;
  @ApiTextOrNull('Author hotkey (null for seeds).')
  miner_hotkey!: string | null;
  @ApiText('Algorithm DSL.')
  algorithm_dsl!: string;
  @ApiNumber('Consensus score.')
  score!: number;
  @ApiInteger('Evaluations the consensus used.')
  evaluations!: number;
  @ApiBoolean('Verified by an allowlisted validator.')
  verified!: boolean;
  @ApiTextOrNull('Validator hotkey that verified it.')
  verified_by!: string | null;
  @ApiDateTimeOrNull('When it was verified.')
  verified_at!: string | null;
  @ApiDateTime('When it became a result.')
  created_at!: string;
}

/** `POST /api/v1/results/verify/{result_id}`. */
export class ResultVerifiedDto {
  @ApiProperty({ type: String, description: 'Always `verified`.', example: 'verified' })
  status!: 'verified';
  @ApiInteger('Result id.')
  result_id!: number;
  @ApiNumber('The task type’s threshold after the verification.')
  sota_threshold!: number;
}

/** `GET /api/v1/results/sota`. */
export class SotaDto {
  @ApiText('Task type.')
  task_type!: string;
  @ApiNumber('Score a result must beat (starts at POOL_SOTA_INITIAL).')
  sota_threshold!: number;
  @ApiDateTimeOrNull('When it last rose.')
  updated_at!: string | null;
  @ApiIntegerOrNull('The verified result that set it.')
  result_id!: number | null;
}

export class ContractStatusDto {
  @ApiInteger('Active vetoes (challenges).')
  active_veto_count!: number;
  @ApiBoolean('A veto is active.')
  is_veto_active!: boolean;
  @ApiBoolean('A published epoch is claimable.')
  claim_ready!: boolean;
  @ApiTextOrNull('Why reading the contract failed.')
  read_error!: string | null;
}

export class OnchainRuntimeDto {
  @ApiBoolean('A claim contract is in use: the dev chain’s own (CHAIN=dev) or one configured by CLAIM_CONTRACT_ADDRESS.')
  enabled!: boolean;
  @ApiTextOrNull('The claim contract: `dev` (the dev chain’s in-process contract), else its SS58 address; null when none is configured.')
  contract!: string | null;
  @ApiProperty({ type: () => ContractStatusDto, description: 'The claim contract as read.' })
  contract_status!: ContractStatusDto;
  @ApiProperty({ description: 'Claim proof routes.', type: 'object', properties: { enabled: { type: 'boolean' } } })
  proof_api!: { enabled: boolean };
  @ApiProperty({ description: 'Keys in use.', type: 'object', properties: { publisher: { type: 'string', nullable: true } } })
  accounts!: { publisher: string | null };
  @ApiProperty({
    description: 'Background processes.',
    type: 'array',
    items: { type: 'object', properties: { name: { type: 'string' }, running: { type: 'boolean' } } },
  })
  processes!: { name: string; running: boolean }[];
}

/** `GET /health` of the pool (DECISIONS.md §8). */
export class PoolHealthDto {
  @ApiProperty({ description: '`healthy`, or `degraded` when the database, Redis or chain fails.', enum: ['healthy', 'degraded'] })
  status!: 'healthy' | 'degraded';
  @ApiIntegerOrNull('Current window: ⌊block / POOL_WINDOW_BLOCKS⌋.')
  window_number!: number | null;
  @ApiIntegerOrNull('Current chain block (null when unreachable).')
  current_block!: number | null;
  @ApiIntegerOrNull('Latest published epoch (null until epochs exist).')
  latest_epoch!: number | null;
  @ApiInteger('Blocks per window (POOL_WINDOW_BLOCKS).')
  window_blocks!: number;
  @ApiProperty({ type: () => OnchainRuntimeDto, description: 'On-chain runtime status.' })
  onchain_runtime!: OnchainRuntimeDto;
}

/** `GET /status` and `/health` of the pool: the health body plus the payout's own state. */
export class PoolStatusDto extends PoolHealthDto {
  @ApiProperty({ type: () => PayoutStatusDto, description: 'Epochs, publication and snapshot state (DECISIONS.md §8).' })
  payout!: PayoutStatusDto;
  @ApiProperty({
    type: [String],
    description:
      'Why `status` is `degraded`, one entry per cause, each starting with its code (`database`, `redis`, `chain`, `publication`, `epochs_behind`); empty when healthy.',
  })
  degraded_reasons!: string[];
}
