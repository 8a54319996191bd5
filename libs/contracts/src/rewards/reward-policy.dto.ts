import { ApiExtraModels, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayUnique, IsArray, IsInt, IsObject, Max, Min, ValidateNested } from 'class-validator';
import { isRecord, ValidateNestedRecord } from '../common/validators';
import { CompetitionPolicyDto } from './competition-policy.dto';
import { PoolPolicyDto } from './pool-policy.dto';
import { ValidatorWeightsPolicyDto } from './validator-weights-policy.dto';
import { ApiDateTime } from '../common/api-fields';

export const MAX_POOLS = 64;

/**
 * Body of `PUT /api/v1/reward-policy` (admin), which replaces the whole document; absent parts take
 * their defaults. Unknown properties are rejected at every level.
 */
@ApiExtraModels(CompetitionPolicyDto)
export class UpdateRewardPolicyDto {
  @ApiPropertyOptional({ description: 'Document version; a PUT below the stored version is 409.', type: 'integer', minimum: 1, default: 1 })
  @IsInt()
  @Min(1)
  @Max(Number.MAX_SAFE_INTEGER)
  version = 1;

  @ApiPropertyOptional({ description: 'Payout pools; `pool_id`s are unique.', type: () => [PoolPolicyDto], maxItems: MAX_POOLS, default: [] })
  @IsArray()
  @ArrayMaxSize(MAX_POOLS)
  // Items without a string pool_id are left to their own errors (a fresh symbol never repeats).
  @ArrayUnique((pool: unknown) => (isRecord(pool) && typeof pool['pool_id'] === 'string' ? pool['pool_id'] : Symbol()), {
    message: 'pool_id must be unique across pools',
  })
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => PoolPolicyDto)
  pools: PoolPolicyDto[] = [];

  @ApiPropertyOptional({ description: 'How validators set chain weights.', type: () => ValidatorWeightsPolicyDto })
  @IsObject()
  @ValidateNested()
  @Type(() => ValidatorWeightsPolicyDto)
  validator_weights: ValidatorWeightsPolicyDto = new ValidatorWeightsPolicyDto();

  @ApiPropertyOptional({ description: "Policy of the pool service's own pool-mining competition (key `local`).", type: () => CompetitionPolicyDto })
  @IsObject()
  @ValidateNested()
  @Type(() => CompetitionPolicyDto)
  local_competition: CompetitionPolicyDto = new CompetitionPolicyDto();

  @ApiPropertyOptional({ description: 'Policy of every task without an override.', type: () => CompetitionPolicyDto })
  @IsObject()
  @ValidateNested()
  @Type(() => CompetitionPolicyDto)
  competition_defaults: CompetitionPolicyDto = new CompetitionPolicyDto();

  @ApiPropertyOptional({
    description: 'Per-task policies keyed by task slug (preferred) or task id.',
    type: 'object',
    additionalProperties: { $ref: getSchemaPath(CompetitionPolicyDto) },
    default: {},
  })
  @ValidateNestedRecord(() => CompetitionPolicyDto)
  competition_overrides: Record<string, CompetitionPolicyDto> = {};
}

/** The stored reward policy document. */
export class RewardPolicyDto extends UpdateRewardPolicyDto {
  @ApiDateTime('When this version was stored.')
  updated_at!: string;
}
