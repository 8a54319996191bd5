import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsInt, IsNumber, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { AcceptedRewardFloorMode, RewardScope, ScoringMode } from '../enums';
import { EnumOrDefault } from '../common/request-fields';

const FINITE = { allowNaN: false, allowInfinity: false } as const;

/** How one competition turns results into scores and where its share goes (DECISIONS §7). */
export class CompetitionPolicyDto {
  @ApiPropertyOptional({ type: Boolean, description: 'Disabled competitions score nothing.', default: true })
  @IsBoolean()
  enabled = true;

  @ApiPropertyOptional({ description: 'Share weight within the target pool.', type: Number, minimum: 0, default: 1.0 })
  @IsNumber(FINITE)
  @Min(0)
  weight = 1.0;

  @ApiPropertyOptional({ type: String, description: 'Pool the competition pays into.', minLength: 1, maxLength: 120, default: 'main' })
  @IsString()
  @Length(1, 120)
  target_pool_id = 'main';

  @EnumOrDefault(RewardScope, RewardScope.CompetitionOnly, 'Whether miners share the competition alone or the whole pool.')
  reward_scope: RewardScope = RewardScope.CompetitionOnly;

  @EnumOrDefault(ScoringMode, ScoringMode.AcceptedPlusBest, 'Which events score.')
  scoring_mode: ScoringMode = ScoringMode.AcceptedPlusBest;

  @ApiPropertyOptional({ description: 'Accepted results within this of an earlier one are duplicates.', type: Number, minimum: 0, default: 1e-6 })
  @IsNumber(FINITE)
  @Min(0)
  accepted_reward_metric_tolerance = 1e-6;

  @EnumOrDefault(AcceptedRewardFloorMode, AcceptedRewardFloorMode.BestPopulationStddev, 'Floor an accepted result must pass to score.')
  accepted_reward_floor_mode: AcceptedRewardFloorMode = AcceptedRewardFloorMode.BestPopulationStddev;

  @ApiPropertyOptional({ description: 'Floor value of the `fixed` mode.', type: Number, nullable: true, default: null })
  @IsOptional()
  @IsNumber(FINITE)
  accepted_reward_floor_value: number | null = null;

  @ApiPropertyOptional({ description: 'Population standard deviations from the best (`best_population_stddev`).', type: Number, minimum: 0, default: 2.0 })
  @IsNumber(FINITE)
  @Min(0)
  accepted_reward_floor_stddevs = 2.0;

  @ApiPropertyOptional({ description: 'Accepted values needed before the stddev floor applies.', type: 'integer', minimum: 1, default: 3 })
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  accepted_reward_floor_min_samples = 3;
}
