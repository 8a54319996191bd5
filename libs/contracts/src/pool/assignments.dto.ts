import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsInt, IsNumber, IsOptional, IsString, Max, Min, MinLength, ValidateNested } from 'class-validator';
import { IsParentRefs, MAX_ALGORITHM_DSL_BYTES, MAX_POOL_LIST_ITEMS, MaxUtf8Bytes, OptionalTaskType } from './pool-validators';
import { ApiBoolean, ApiDateTime, ApiInteger, ApiNumber, ApiText } from '../common/api-fields';
import { stacked } from '../common/request-fields';

/*
 * Pool request models ignore unknown properties (DECISIONS.md §2 Pool, compat: BitSota clients repeat
 * `public_address`, `signature`, `message` and send `evaluation_metrics`, `metadata`); known fields are bounded.
 */

export const BATCH_KINDS = ['evolve', 'evaluate'] as const;

export type BatchKind = (typeof BATCH_KINDS)[number];

/** At most MAX_POOL_LIST_ITEMS objects, each validated as an `item`; absent means none. */
function OptionalPoolList(item: new () => object, description: string): PropertyDecorator {
  return stacked(
    ApiPropertyOptional({ type: [item], description, maxItems: MAX_POOL_LIST_ITEMS, default: [] }),
    IsOptional(),
    IsArray(),
    ArrayMaxSize(MAX_POOL_LIST_ITEMS),
    ValidateNested({ each: true }),
    Type(() => item),
  );
}

/** `POST /api/v1/tasks/request` (TaskRequest). */
export class TaskRequestDto {
  @ApiPropertyOptional({ description: 'Which batch: `evolve` (default) or `evaluate`.', enum: BATCH_KINDS, default: 'evolve' })
  @IsOptional()
  @IsIn(BATCH_KINDS)
  task_type?: BatchKind;
}

/** `POST /api/v1/tasks/lease` (LeaseRequest). */
export class LeaseRequestDto {
  @OptionalTaskType('Benchmark task type, `[a-z0-9_]{1,64}`; default POOL_DEFAULT_TASK_TYPE.')
  task_type?: string;

  @ApiPropertyOptional({ type: 'integer', description: 'Algorithms to evaluate; default POOL_EVAL_BATCH_SIZE.', minimum: 2, maximum: 64 })
  @IsOptional()
  @IsInt()
  @Min(2)
  @Max(64)
  eval_batch_size?: number;

  @ApiPropertyOptional({ type: 'integer', description: 'Parent algorithms offered for evolution; default POOL_EVOLVE_PARENTS.', minimum: 2, maximum: 64 })
  @IsOptional()
  @IsInt()
  @Min(2)
  @Max(64)
  seed_batch_size?: number;

  @ApiPropertyOptional({ type: 'integer', description: 'Gossiped algorithm ids wanted; clamped to 0..50 (default 10).' })
  @IsOptional()
  @IsInt()
  @Min(-1_000_000)
  @Max(1_000_000)
  gossip_limit?: number;

  @ApiPropertyOptional({ type: 'integer', description: 'Simulated window number; accepted only with POOL_DEV_WINDOWS=true.', minimum: 0 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(2 ** 31 - 1)
  sim_window_number?: number;
}

/** One score a miner measured for an algorithm. */
export class AlgorithmScoreDto {
  @ApiProperty({ type: 'integer', description: 'Algorithm id (of the batch or lease).', minimum: 1 })
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  algorithm_id!: number;

  @ApiNumber('Score the miner measured (finite, within POOL_SCORE_MIN..POOL_SCORE_MAX, 0..1 by default).')
  @IsNumber({ allowNaN: false, allowInfinity: false })
  score!: number;
}

/** `POST /api/v1/tasks/{batch_id}/submit_evaluation`. */
export class EvaluationSubmissionDto {
  @ApiProperty({
    type: [AlgorithmScoreDto],
    description: 'Scores of algorithms of the batch: at least one, each id at most once, each within POOL_SCORE_MIN..POOL_SCORE_MAX.',
    minItems: 1,
    maxItems: MAX_POOL_LIST_ITEMS,
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_POOL_LIST_ITEMS)
  @ValidateNested({ each: true })
  @Type(() => AlgorithmScoreDto)
  evaluations!: AlgorithmScoreDto[];
}

/** `POST /api/v1/tasks/{batch_id}/submit_evolution` (EvolutionSubmission). */
export class EvolutionSubmissionDto {
  @ApiProperty({ type: String, description: 'The evolved algorithm DSL, UTF-8, at most 64 KiB.', minLength: 1, maxLength: MAX_ALGORITHM_DSL_BYTES })
  @IsString()
  @MinLength(1)
  @MaxUtf8Bytes(MAX_ALGORITHM_DSL_BYTES)
  evolved_function!: string;

  @ApiPropertyOptional({
    description: 'Parents: algorithm ids, or objects with an integer `id` (as BitSota clients send them); each must be an algorithm of the batch (422 `parent_not_assigned`); none means all of them.',
    type: 'array',
    items: { oneOf: [{ type: 'integer' }, { type: 'object', properties: { id: { type: 'integer' } } }] },
    maxItems: MAX_POOL_LIST_ITEMS,
    default: [],
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_POOL_LIST_ITEMS)
  @IsParentRefs()
  parent_functions: unknown[] = [];
}

/** An algorithm evolved during a lease. */
export class LeaseEvolutionDto {
  @ApiProperty({ type: [Number], description: 'Parent algorithm ids, each an algorithm of the lease (422 `parent_not_assigned`); none means its seed algorithms.', maxItems: MAX_POOL_LIST_ITEMS, default: [] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_POOL_LIST_ITEMS)
  @IsInt({ each: true })
  @Min(1, { each: true })
  parent_algorithm_ids: number[] = [];

  @ApiProperty({ type: String, description: 'The evolved algorithm DSL, UTF-8, at most 64 KiB.', minLength: 1, maxLength: MAX_ALGORITHM_DSL_BYTES })
  @IsString()
  @MinLength(1)
  @MaxUtf8Bytes(MAX_ALGORITHM_DSL_BYTES)
  algorithm_dsl!: string;
}

/** `POST /api/v1/tasks/{lease_id}/submit_lease` (LeaseSubmission). */
export class LeaseSubmissionDto {
  @OptionalPoolList(AlgorithmScoreDto, 'Scores of the lease’s evaluate_algorithms, each id at most once.')
  evaluations: AlgorithmScoreDto[] = [];

  @OptionalPoolList(LeaseEvolutionDto, 'Evolved algorithms, at most the lease’s evolve_budget (422 beyond).')
  evolutions: LeaseEvolutionDto[] = [];

  @ApiPropertyOptional({ type: 'integer', description: 'Local iterations the miner ran (informational).', minimum: 0 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  iterations?: number;

  @ApiPropertyOptional({ type: Object, description: 'Gossip the miner passes on (informational, not stored).' })
  @IsOptional()
  gossip?: unknown;
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
