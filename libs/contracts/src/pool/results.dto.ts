import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNumber, IsOptional } from 'class-validator';
import { ToNumber } from '../common/transforms';
import { ApiBoolean, ApiDateTime, ApiDateTimeOrNull, ApiInteger, ApiIntegerOrNull, ApiNumber, ApiText, ApiTextOrNull } from '../common/api-fields';
import { DEFAULT_PAGE_LIMIT, PageLimit } from '../common/page-query.dto';
import { OptionalTaskType } from './pool-validators';

/*
 * Pool request models ignore unknown properties (DECISIONS.md §2 Pool, compat: BitSota clients repeat
 * `public_address`, `signature`, `message` and send `evaluation_metrics`, `metadata`); known fields are bounded.
 */

export const RESULT_STATUSES = ['verified', 'pending'] as const;

export type ResultStatus = (typeof RESULT_STATUSES)[number];

/** `GET /api/v1/results/`. */
export class ResultsQueryDto {
  @PageLimit('Rows, newest first.')
  limit = DEFAULT_PAGE_LIMIT;

  @OptionalTaskType('Only this task type.')
  task_type?: string;

  @ApiPropertyOptional({ type: Number, description: 'Only results scoring at least this.' })
  @IsOptional()
  @ToNumber()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  min_score?: number;

  @ApiPropertyOptional({ description: '`verified` (default) or `pending` (validators only).', enum: RESULT_STATUSES, default: 'verified' })
  @IsOptional()
  @IsIn(RESULT_STATUSES)
  status: ResultStatus = 'verified';
}

/** `GET /api/v1/results/sota`. */
export class SotaQueryDto {
  @OptionalTaskType('Task type; default POOL_DEFAULT_TASK_TYPE.')
  task_type?: string;
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
