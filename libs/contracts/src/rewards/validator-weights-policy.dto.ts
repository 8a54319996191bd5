import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsEnum,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsPositive,
  IsString,
  Length,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { ExactlyOneOf } from '../common/validators';
import { ValidatorWeightsMode } from '../enums';
import { BoundedText, EnumOrDefault } from '../common/request-fields';

export const MAX_UID = 65_535;
export const MAX_WEIGHT_TARGETS = 4096;
export const DEFAULT_WEIGHTS_VERSION_KEY = 1337;

const whenSet = { validateIf: (_owner: object, value: unknown) => value != null };

/** One weight target: a uid or a hotkey (exactly one), and a positive weight. */
export class ValidatorWeightTargetDto {
  @ApiPropertyOptional({ description: 'Subnet uid; set exactly one of `uid` and `hotkey`.', type: 'integer', nullable: true, minimum: 0, maximum: MAX_UID, default: null })
  @ExactlyOneOf(['uid', 'hotkey'])
  @IsInt(whenSet)
  @Min(0, whenSet)
  @Max(MAX_UID, whenSet)
  uid: number | null = null;

  @ApiPropertyOptional({ description: 'Hotkey (SS58); set exactly one of `uid` and `hotkey`.', type: String, nullable: true, minLength: 1, maxLength: 128, default: null })
  @IsOptional()
  @IsString()
  @Length(1, 128)
  hotkey: string | null = null;

  @ApiProperty({ description: 'Relative weight, > 0.', type: Number, exclusiveMinimum: true, minimum: 0 })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @IsPositive()
  weight!: number;
}

export enum TransitionPolicyStatus {
  Active = 'active',
  Inactive = 'inactive',
}

/**
 * A transition the weight setter must honour while `active`: exactly `required_contract_weight` on
 * the contract hotkey and `remaining_weight` on uid 0 (fractions of the whole vector); any other
 * vector is refused, not set (DECISIONS §7, §12).
 */
export class TransitionPolicyDto {
  @ApiProperty({ description: '`active` enforces the split; `inactive` ignores it.', enum: TransitionPolicyStatus, enumName: 'TransitionPolicyStatus' })
  @IsEnum(TransitionPolicyStatus)
  status!: TransitionPolicyStatus;

  @BoundedText('Hotkey (SS58) of the contract that must receive `required_contract_weight`.', 1, 128)
  required_contract_hotkey!: string;

  @ApiProperty({ description: 'Fraction of the vector on the contract hotkey, 0..1.', type: Number, minimum: 0, maximum: 1 })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(1)
  required_contract_weight!: number;

  @ApiProperty({ description: 'Fraction of the vector on uid 0, 0..1.', type: Number, minimum: 0, maximum: 1 })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(1)
  remaining_weight!: number;
}

/** How the weight setter turns the snapshot into chain weights (DECISIONS §7). */
export class ValidatorWeightsPolicyDto {
  @EnumOrDefault(ValidatorWeightsMode, ValidatorWeightsMode.Local, '`local`: from the snapshot scores; `burn_uid0`: everything to uid 0; `targets`: the listed targets.')
  mode: ValidatorWeightsMode = ValidatorWeightsMode.Local;

  @ApiPropertyOptional({ description: 'Targets of the `targets` mode.', type: () => [ValidatorWeightTargetDto], maxItems: MAX_WEIGHT_TARGETS, default: [] })
  @IsArray()
  @ArrayMaxSize(MAX_WEIGHT_TARGETS)
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => ValidatorWeightTargetDto)
  targets: ValidatorWeightTargetDto[] = [];

  @ApiPropertyOptional({ description: '`version_key` passed to `set_weights`.', type: 'integer', minimum: 0, default: DEFAULT_WEIGHTS_VERSION_KEY })
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  version_key = DEFAULT_WEIGHTS_VERSION_KEY;

  @ApiPropertyOptional({ description: 'A contract/burn split the vector must follow while active; absent or null: none.', type: () => TransitionPolicyDto, nullable: true })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => TransitionPolicyDto)
  transition_policy?: TransitionPolicyDto | null;
}
