import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';
import { ContractHotkeyMode } from '../enums';
import { BoundedText, EnumOrDefault, OptionalText } from '../common/request-fields';

/** One payout pool of the reward policy. */
export class PoolPolicyDto {
  @BoundedText('Pool key, referenced by `target_pool_id`.', 1, 120)
  pool_id!: string;

  @BoundedText('Human label.', 1, 255)
  label!: string;

  @ApiPropertyOptional({ type: Boolean, description: 'Disabled pools receive nothing.', default: true })
  @IsBoolean()
  enabled = true;

  @EnumOrDefault(ContractHotkeyMode, ContractHotkeyMode.MainContract, 'Whether the pool is paid through the main claim contract or its own.')
  contract_hotkey_mode: ContractHotkeyMode = ContractHotkeyMode.MainContract;

  @OptionalText('Hotkey receiving validator-set emissions for the pool.', 128)
  contract_hotkey: string | null = null;

  @OptionalText('Claim contract address of a dedicated pool.', 128)
  contract_address: string | null = null;
}
