import { ApiProperty } from '@nestjs/swagger';

/** `GET /api/v1/onchain/status`: the claim contract as this deployment sees it. */
export class OnchainStatusDto {
  @ApiProperty({ type: Boolean, description: 'A chain endpoint and contract address are configured.' })
  configured!: boolean;

  @ApiProperty({ type: String, description: 'Chain websocket endpoint.' })
  ws_url!: string;

  @ApiProperty({ type: String, description: 'Claim contract address.' })
  contract!: string;

  @ApiProperty({ type: String, description: "Path of the contract's ink! metadata JSON." })
  metadata_path!: string;

  @ApiProperty({ type: Boolean, description: 'The metadata file exists.' })
  metadata_exists!: boolean;

  @ApiProperty({ description: 'Message labels found in the metadata.', type: [String] })
  metadata_messages!: string[];

  @ApiProperty({ type: Boolean, description: 'The metadata has every required message (`publish_epoch`, `claim_single`, `challenge_epoch`).' })
  required_messages_present!: boolean;

  @ApiProperty({ description: 'The chain answered; null when not checked.', type: Boolean, nullable: true })
  chain_reachable!: boolean | null;

  @ApiProperty({ description: 'Latest block number seen.', type: 'integer', nullable: true })
  latest_block!: number | null;

  @ApiProperty({ description: 'Contract info exists on chain; null when not checked.', type: Boolean, nullable: true })
  contract_info_present!: boolean | null;

  @ApiProperty({ description: 'Free balance of the contract account, in planck.', type: 'integer', nullable: true })
  contract_account_free!: number | null;

  @ApiProperty({ description: 'Reserved balance of the contract account, in planck.', type: 'integer', nullable: true })
  contract_account_reserved!: number | null;

  @ApiProperty({ description: 'Why a check failed.', type: String, nullable: true })
  error!: string | null;
}
