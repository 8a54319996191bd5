import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches } from 'class-validator';
import { MetricDirection, TaskState } from '../enums';
import { ApiBoolean, ApiDateTime, ApiEnum, ApiInteger, ApiNumberOrNull, ApiText } from '../common/api-fields';
import { PageQueryDto } from '../common/page-query.dto';

/** A keyset cursor of the miner results: `<latest_decided_at>,<task_id>` of the last row of the previous page. */
export const MINER_RESULTS_CURSOR = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z),([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/**
 * Query of `GET /api/v1/miners/{hotkey}/results`: competitions, the latest decided first, paged like the other lists
 * (`limit`, `offset`) or by keyset (`after`, which reads from the index where the previous page stopped).
 */
export class MinerResultsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    description: 'Keyset cursor: `<latest_decided_at>,<task_id>` of the last competition of the previous page; the page starts after it.',
    pattern: MINER_RESULTS_CURSOR.source,
    example: '2026-11-28T12:00:00.000Z,0f8fad5b-d9cb-469f-a165-70867728950e',
  })
  @IsOptional()
  @IsString()
  @Matches(MINER_RESULTS_CURSOR, { message: 'after must be "<latest_decided_at as printed>,<task_id>" of a competition of the previous page' })
  after?: string;
}

/** The miner's best accepted result in one competition. */
export class MinerBestResultDto {
  @ApiText('The accepted submission.')
  submission_id!: string;

  @ApiNumberOrNull('Its verified value of the task metric.')
  metric_value!: number | null;

  @ApiDateTime('When it was decided.')
  decided_at!: string;
}

/**
 * One competition in which a miner has accepted results: what the dashboard's decisions and the best
 * history already show, gathered by hotkey. Never a patch, a replay log or a validator's notes.
 */
export class MinerCompetitionResultsDto {
  @ApiText('Task id.')
  task_id!: string;

  @ApiText('Task slug.')
  task_slug!: string;

  @ApiText('Task title.')
  task_title!: string;

  @ApiEnum(TaskState, 'Task state.')
  task_state!: TaskState;

  @ApiText('Primary metric key.')
  metric_name!: string;

  @ApiEnum(MetricDirection, 'Direction of the primary metric.')
  metric_direction!: MetricDirection;

  @ApiInteger("The miner's accepted submissions in this competition.")
  accepted!: number;

  @ApiProperty({ description: "The miner's best verified value by the metric's direction (the earliest of equal values).", type: () => MinerBestResultDto })
  best!: MinerBestResultDto;

  @ApiDateTime("The miner's latest accepted decision here; competitions are listed by it, newest first.")
  latest_decided_at!: string;

  @ApiBoolean("Whether the competition's current best result is this miner's.")
  holds_best!: boolean;
}

/** `GET /api/v1/miners/{hotkey}/results`: the hotkey as stored (canonical SS58) and its competitions. */
export class MinerResultsDto {
  @ApiText('The hotkey in its canonical SS58 form (prefix 42), whatever spelling was asked.')
  hotkey!: string;

  @ApiProperty({ description: 'Competitions with an accepted result of the miner, the latest decided first.', type: () => [MinerCompetitionResultsDto] })
  competitions!: MinerCompetitionResultsDto[];
}
