import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsInt, IsNumber, IsOptional, Max, Min } from 'class-validator';
import { ExposureStatus } from '../enums';
import { ApiEnum, ApiInteger, ApiNumber } from '../common/api-fields';

/** The largest budget a shard may be given, in bits. */
export const MAX_HELDOUT_BUDGET_BITS = 1_000_000;

/** Bits one release costs with the defaults (k_max 1024, 64 levels): the smallest budget a shard may have. */
export const MIN_HELDOUT_BUDGET_BITS = 16;

/** A task's held-out exposure budget (DECISIONS §17): opt-in, per task, one budget per shard for everyone. */
export class HeldoutBudgetDto {
  @ApiPropertyOptional({ description: 'Whether results are released through the budget; false keeps exact release.', type: Boolean, default: true })
  @IsBoolean()
  enabled = true;

  @ApiPropertyOptional({
    description: "The release grid and the least improvement released, in the metric's units; null: the task's `metric_resolution`.",
    type: Number,
    nullable: true,
    exclusiveMinimum: true,
    minimum: 0,
    default: null,
  })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(Number.MIN_VALUE)
  step: number | null = null;

  @ApiPropertyOptional({
    description: 'Bits each shard may release (16 per release); null: from the shard size and the first replays’ per-item spread, at least 16.',
    type: 'integer',
    nullable: true,
    minimum: MIN_HELDOUT_BUDGET_BITS,
    maximum: MAX_HELDOUT_BUDGET_BITS,
    default: null,
  })
  @IsOptional()
  @IsInt()
  @Min(MIN_HELDOUT_BUDGET_BITS)
  @Max(MAX_HELDOUT_BUDGET_BITS)
  bits: number | null = null;

  @ApiPropertyOptional({ description: 'Failure probability δ of the default budget.', type: Number, exclusiveMinimum: true, minimum: 0, maximum: 0.5, default: 0.05 })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(Number.MIN_VALUE)
  @Max(0.5)
  delta = 0.05;
}

/** A task's budget as the task answers it: the defaults resolved. */
export class HeldoutBudgetViewDto {
  @ApiProperty({ description: 'Whether results are released through the budget.', type: Boolean })
  enabled!: boolean;

  @ApiNumber('The release grid and least improvement released.')
  step!: number;

  @ApiProperty({ description: 'Bits each shard may release; null: derived per shard.', type: 'integer', nullable: true })
  bits!: number | null;

  @ApiNumber('Failure probability δ of the default budget.')
  delta!: number;
}

/** What the task's active held-out shard has released so far (DECISIONS §17). */
export class TaskExposureDto {
  @ApiInteger('Bits released on the active shard.')
  spent_bits!: number;

  @ApiInteger('Bits the active shard may release.')
  budget_bits!: number;

  @ApiInteger('Results released on the active shard.')
  releases!: number;

  @ApiEnum(ExposureStatus, '`open`: releasing; `exhausted`: no shard left, results are held until an admin uploads one.')
  status!: ExposureStatus;
}

/** The answer of the admin re-score (`POST /api/v1/tasks/{task_id}/rescore`). */
export class RescoreResponseDto {
  @ApiProperty({ description: 'Task id.', type: String })
  task_id!: string;

  @ApiInteger('Re-score jobs now waiting for validators (the leader first, then results held for rotation).')
  queued!: number;

  @ApiProperty({ description: 'Whether the task moved to its next uploaded held-out shard first.', type: Boolean })
  rotated!: boolean;

  @ApiProperty({ description: "The task's exposure after the request; null when it has no budget.", type: () => TaskExposureDto, nullable: true })
  exposure!: TaskExposureDto | null;
}
