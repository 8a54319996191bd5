import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsEnum, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { ContractHotkeyMode } from '../enums';

/** One payout pool of the reward policy. */
export class PoolPolicyDto {
  @ApiProperty({ type: String, description: 'Pool key, referenced by `target_pool_id`.', minLength: 1, maxLength: 120 })
  @IsString()
  @Length(1, 120)
  pool_id!: string;

  @ApiProperty({ type: String, description: 'Human label.', minLength: 1, maxLength: 255 })
  @IsString()
  @Length(1, 255)
  label!: string;

  @ApiPropertyOptional({ type: Boolean, description: 'Disabled pools receive nothing.', default: true })
  @IsBoolean()
  enabled = true;

  @ApiPropertyOptional({
    description: 'Whether the pool is paid through the main claim contract or its own.',
    enum: ContractHotkeyMode,
    enumName: 'ContractHotkeyMode',
    default: ContractHotkeyMode.MainContract,
  })
  @IsEnum(ContractHotkeyMode)
  contract_hotkey_mode: ContractHotkeyMode = ContractHotkeyMode.MainContract;

  @ApiPropertyOptional({ description: 'Hotkey receiving validator-set emissions for the pool.', type: String, nullable: true, maxLength: 128, default: null })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  contract_hotkey: string | null = null;

  @ApiPropertyOptional({ description: 'Claim contract address of a dedicated pool.', type: String, nullable: true, maxLength: 128, default: null })
  @IsOptional()
  @IsString()
  @MaxLength(128)
  contract_address: string | null = null;
}
