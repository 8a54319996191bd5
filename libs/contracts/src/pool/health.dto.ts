import { ApiProperty } from '@nestjs/swagger';
import { PayoutStatusDto } from './payout-claims.dto';
import { ApiBoolean, ApiInteger, ApiIntegerOrNull, ApiTextOrNull } from '../common/api-fields';

export class ContractStatusDto {
  @ApiInteger('Active vetoes (challenges).')
  active_veto_count!: number;
  @ApiBoolean('A veto is active.')
  is_veto_active!: boolean;
  @ApiBoolean('A published epoch is claimable.')
  claim_ready!: boolean;
  @ApiTextOrNull('Why reading the contract failed.')
  read_error!: string | null;
}

export class OnchainRuntimeDto {
  @ApiBoolean('A claim contract is in use: the dev chain’s own (CHAIN=dev) or one configured by CLAIM_CONTRACT_ADDRESS.')
  enabled!: boolean;
  @ApiTextOrNull('The claim contract: `dev` (the dev chain’s in-process contract), else its SS58 address; null when none is configured.')
  contract!: string | null;
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
  @ApiIntegerOrNull('Current window: ⌊block / POOL_WINDOW_BLOCKS⌋.')
  window_number!: number | null;
  @ApiIntegerOrNull('Current chain block (null when unreachable).')
  current_block!: number | null;
  @ApiIntegerOrNull('Latest published epoch (null until epochs exist).')
  latest_epoch!: number | null;
  @ApiInteger('Blocks per window (POOL_WINDOW_BLOCKS).')
  window_blocks!: number;
  @ApiProperty({ type: () => OnchainRuntimeDto, description: 'On-chain runtime status.' })
  onchain_runtime!: OnchainRuntimeDto;
}

/** `GET /status` and `/health` of the pool: the health body plus the payout's own state. */
export class PoolStatusDto extends PoolHealthDto {
  @ApiProperty({ type: () => PayoutStatusDto, description: 'Epochs, publication and snapshot state (DECISIONS.md §8).' })
  payout!: PayoutStatusDto;
  @ApiProperty({
    type: [String],
    description:
      'Why `status` is `degraded`, one entry per cause, each starting with its code (`database`, `redis`, `chain`, `publication`, `epochs_behind`); empty when healthy.',
  })
  degraded_reasons!: string[];
}
