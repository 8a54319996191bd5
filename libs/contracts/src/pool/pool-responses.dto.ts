import { ApiProperty } from '@nestjs/swagger';
import { PayoutStatusDto } from './claims.dto';

/** `POST /api/v1/miners/register`. */
export class PoolMinerDto {
  @ApiProperty({ type: String, description: 'Miner hotkey (canonical SS58, prefix 42).' })
  hotkey!: string;
  @ApiProperty({ type: String, format: 'date-time', description: 'First registration.' })
  registered_at!: string;
  @ApiProperty({ type: String, format: 'date-time', description: 'Last signed request.' })
  last_seen_at!: string;
  @ApiProperty({ type: Number, description: 'Current decayed reputation (≥ 0).' })
  reputation!: number;
  @ApiProperty({ type: String, nullable: true, description: 'Stored payout recipient coldkey.' })
  recipient_coldkey!: string | null;
}

/** The miner's open assignment, if any. */
export class ActiveAssignmentDto {
  @ApiProperty({ type: String, description: 'Batch or lease id.' })
  id!: string;
  @ApiProperty({ description: 'What it is.', enum: ['evolve', 'evaluate', 'lease'] })
  kind!: string;
  @ApiProperty({ type: String, format: 'date-time', description: 'When it expires.' })
  timeout_at!: string;
}

export class MinerStatsMinerDto {
  @ApiProperty({ type: String, description: 'Miner hotkey (canonical SS58).' })
  hotkey!: string;
  @ApiProperty({ type: Number, description: 'Current decayed reputation (≥ 0).' })
  reputation!: number;
  @ApiProperty({ type: 'integer', description: 'Evaluations submitted.' })
  evaluations!: number;
  @ApiProperty({ type: 'integer', description: 'Evaluations found in consensus.' })
  evaluations_in_consensus!: number;
  @ApiProperty({ type: 'integer', description: 'Algorithms evolved.' })
  evolutions!: number;
  @ApiProperty({ type: 'integer', description: 'Evolved algorithms that were scored.' })
  evolutions_scored!: number;
  @ApiProperty({ type: () => ActiveAssignmentDto, nullable: true, description: 'The open batch or lease.' })
  active_assignment!: ActiveAssignmentDto | null;
  @ApiProperty({ type: String, format: 'date-time', description: 'Last signed request.' })
  last_seen_at!: string;
  @ApiProperty({ type: String, nullable: true, description: 'Stored payout recipient coldkey.' })
  recipient_coldkey!: string | null;
}

export class PoolSummaryDto {
  @ApiProperty({ type: 'integer', description: 'Registered miners.' })
  miners!: number;
  @ApiProperty({ type: 'integer', description: 'Miners seen in the last 24 h.' })
  active_miners_24h!: number;
  @ApiProperty({ type: 'integer', description: 'Algorithms stored.' })
  algorithms!: number;
  @ApiProperty({ type: 'integer', description: 'Algorithms still waiting for consensus.' })
  pending_evaluations!: number;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Current payout window (null when the chain is unreachable).' })
  window_number!: number | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Latest published epoch (null until epochs exist).' })
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
  @ApiProperty({ type: 'integer', description: '1-based rank (reputation, then hotkey).' })
  rank!: number;
  @ApiProperty({ type: String, description: 'Miner hotkey.' })
  hotkey!: string;
  @ApiProperty({ type: Number, description: 'Decayed reputation.' })
  reputation!: number;
  @ApiProperty({ type: 'integer', description: 'Evaluations submitted.' })
  evaluations!: number;
  @ApiProperty({ type: 'integer', description: 'Algorithms evolved.' })
  evolutions!: number;
  @ApiProperty({ type: String, format: 'date-time', description: 'Last signed request.' })
  last_seen_at!: string;
}

/** 200 of the three governing recipient routes. */
export class RecipientUpdatedDto {
  @ApiProperty({ type: String, description: 'Always `updated`.', example: 'updated' })
  status!: 'updated';
  @ApiProperty({ type: String, description: 'Miner hotkey.' })
  hotkey!: string;
  @ApiProperty({ type: String, description: 'Stored recipient (canonical SS58).' })
  recipient_coldkey!: string;
  @ApiProperty({ type: String, format: 'date-time', description: 'When it was stored.' })
  updated_at!: string;
}

/** `GET /api/v1/miners/recipient-coldkey[/{miner_hotkey}]`. */
export class RecipientDto {
  @ApiProperty({ type: String, description: 'Miner hotkey (canonical SS58).' })
  hotkey!: string;
  @ApiProperty({ type: String, nullable: true, description: 'Stored recipient: where the next published leaf pays.' })
  recipient_coldkey!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When the recipient was stored.' })
  updated_at!: string | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Latest epoch that published this recipient (null until then).' })
  published_in_epoch!: number | null;
  @ApiProperty({ type: String, nullable: true, description: 'Coldkey declared on the root compatibility route (does not govern claims).' })
  declared_coldkey!: string | null;
}

/** 200 of the root `POST /coldkey_address/update` (compat). */
export class ColdkeyDeclaredDto {
  @ApiProperty({ type: String, description: 'Always `success` (compat).', example: 'success' })
  status!: 'success';
  @ApiProperty({ type: String, description: 'The declared coldkey (canonical SS58).' })
  coldkey_address!: string;
}

/** An algorithm handed out in a batch or lease. */
export class PoolAlgorithmDto {
  @ApiProperty({ type: 'integer', description: 'Algorithm id.' })
  id!: number;
  @ApiProperty({ type: String, description: 'Algorithm DSL (opaque to the pool).' })
  algorithm_dsl!: string;
  @ApiProperty({ type: 'integer', description: 'Input dimension.' })
  input_dim!: number;
  @ApiProperty({ type: String, description: 'Benchmark task type.' })
  task_type!: string;
}

/** `POST /api/v1/tasks/request`. */
export class PoolBatchDto {
  @ApiProperty({ type: String, description: 'Batch id (submit to it).' })
  batch_id!: string;
  @ApiProperty({ description: '`evolve` or `evaluate`.', enum: ['evolve', 'evaluate'] })
  task_type!: string;
  @ApiProperty({ type: [PoolAlgorithmDto], description: 'Algorithms to evaluate, or parents to evolve.' })
  algorithms!: PoolAlgorithmDto[];
  @ApiProperty({ type: String, format: 'date-time', description: 'When the batch expires.' })
  timeout_at!: string;
}

export class GossipDto {
  @ApiProperty({ type: String, description: 'Task type of the gossiped algorithms.' })
  task_type!: string;
  @ApiProperty({ type: [Number], description: 'Ids of the best scored algorithms.' })
  algorithm_ids!: number[];
}

/** `POST /api/v1/tasks/lease`. */
export class PoolLeaseDto {
  @ApiProperty({ type: String, description: 'Lease id (submit to it).' })
  lease_id!: string;
  @ApiProperty({ type: 'integer', description: 'Window the lease belongs to (one lease per miner per window).' })
  window_number!: number;
  @ApiProperty({ type: String, format: 'date-time', description: 'When the lease expires (ISO 8601, Z).' })
  timeout_at!: string;
  @ApiProperty({ type: 'integer', description: 'Evolutions the lease accepts (POOL_LEASE_EVOLVE_BUDGET).' })
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
  @ApiProperty({ type: String, description: 'Always `accepted`.', example: 'accepted' })
  status!: 'accepted';
  @ApiProperty({ type: 'integer', description: 'Id of the new algorithm.' })
  algorithm_id!: number;
}

/** `POST …/submit_evaluation`. */
export class EvaluationAcceptedDto {
  @ApiProperty({ type: String, description: 'Always `accepted`.', example: 'accepted' })
  status!: 'accepted';
  @ApiProperty({ type: 'integer', description: 'Evaluations recorded.' })
  recorded!: number;
}

/** `POST …/submit_lease`. */
export class LeaseAcceptedDto {
  @ApiProperty({ type: String, description: 'Always `accepted`.', example: 'accepted' })
  status!: 'accepted';
  @ApiProperty({ type: 'integer', description: 'Evaluations recorded.' })
  recorded_evaluations!: number;
  @ApiProperty({ type: [Number], description: 'Ids of the algorithms the evolutions created.' })
  created_algorithm_ids!: number[];
}

/** `GET /api/v1/tasks/pending_evaluations`. */
export class PendingEvaluationsDto {
  @ApiProperty({ type: Boolean, description: 'Whether an evaluation batch would find work for the signer.' })
  has_pending_evaluations!: boolean;
  @ApiProperty({ type: 'integer', description: 'Pending algorithms the signer may evaluate.' })
  count!: number;
}

/** One row of `GET /api/v1/results/`. */
export class PoolResultDto {
  @ApiProperty({ type: 'integer', description: 'Result id.' })
  id!: number;
  @ApiProperty({ type: 'integer', description: 'Algorithm id.' })
  algorithm_id!: number;
  @ApiProperty({ type: String, description: 'Benchmark task type.' })
  task_type!: string;
  @ApiProperty({ type: String, nullable: true, description: 'Author hotkey (null for seeds).' })
  miner_hotkey!: string | null;
  @ApiProperty({ type: String, description: 'Algorithm DSL.' })
  algorithm_dsl!: string;
  @ApiProperty({ type: Number, description: 'Consensus score.' })
  score!: number;
  @ApiProperty({ type: 'integer', description: 'Evaluations the consensus used.' })
  evaluations!: number;
  @ApiProperty({ type: Boolean, description: 'Verified by an allowlisted validator.' })
  verified!: boolean;
  @ApiProperty({ type: String, nullable: true, description: 'Validator hotkey that verified it.' })
  verified_by!: string | null;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When it was verified.' })
  verified_at!: string | null;
  @ApiProperty({ type: String, format: 'date-time', description: 'When it became a result.' })
  created_at!: string;
}

/** `POST /api/v1/results/verify/{result_id}`. */
export class ResultVerifiedDto {
  @ApiProperty({ type: String, description: 'Always `verified`.', example: 'verified' })
  status!: 'verified';
  @ApiProperty({ type: 'integer', description: 'Result id.' })
  result_id!: number;
  @ApiProperty({ type: Number, description: 'The task type’s threshold after the verification.' })
  sota_threshold!: number;
}

/** `GET /api/v1/results/sota`. */
export class SotaDto {
  @ApiProperty({ type: String, description: 'Task type.' })
  task_type!: string;
  @ApiProperty({ type: Number, description: 'Score a result must beat (starts at POOL_SOTA_INITIAL).' })
  sota_threshold!: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When it last rose.' })
  updated_at!: string | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'The verified result that set it.' })
  result_id!: number | null;
}

export class ContractStatusDto {
  @ApiProperty({ type: 'integer', description: 'Active vetoes (challenges).' })
  active_veto_count!: number;
  @ApiProperty({ type: Boolean, description: 'A veto is active.' })
  is_veto_active!: boolean;
  @ApiProperty({ type: Boolean, description: 'A published epoch is claimable.' })
  claim_ready!: boolean;
  @ApiProperty({ type: String, nullable: true, description: 'Why reading the contract failed.' })
  read_error!: string | null;
}

export class OnchainRuntimeDto {
  @ApiProperty({ type: Boolean, description: 'A claim contract is configured.' })
  enabled!: boolean;
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
  @ApiProperty({ type: 'integer', nullable: true, description: 'Current window: ⌊block / POOL_WINDOW_BLOCKS⌋.' })
  window_number!: number | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Current chain block (null when unreachable).' })
  current_block!: number | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Latest published epoch (null until epochs exist).' })
  latest_epoch!: number | null;
  @ApiProperty({ type: 'integer', description: 'Blocks per window (POOL_WINDOW_BLOCKS).' })
  window_blocks!: number;
  @ApiProperty({ type: () => OnchainRuntimeDto, description: 'On-chain runtime status.' })
  onchain_runtime!: OnchainRuntimeDto;
}

/** `GET /status` and `/health` of the pool: the health body plus the payout's own state. */
export class PoolStatusDto extends PoolHealthDto {
  @ApiProperty({ type: () => PayoutStatusDto, description: 'Epochs, publication and snapshot state (DECISIONS.md §8).' })
  payout!: PayoutStatusDto;
}
