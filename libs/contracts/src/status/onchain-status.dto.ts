import { ApiProperty } from '@nestjs/swagger';
import { ApiBoolean, ApiBooleanOrNull, ApiIntegerOrNull, ApiText, ApiTextOrNull } from '../common/api-fields';

/** `GET /api/v1/onchain/status`: the claim contract as this deployment sees it. */
export class OnchainStatusDto {
  @ApiBoolean('A chain endpoint and contract address are configured.')
  configured!: boolean;

  @ApiText('Chain websocket endpoint.')
  ws_url!: string;

  @ApiText('Claim contract address.')
  contract!: string;

  @ApiText("Path of the contract's ink! metadata JSON.")
  metadata_path!: string;

  @ApiBoolean('The metadata file exists.')
  metadata_exists!: boolean;

  @ApiProperty({ description: 'Message labels found in the metadata.', type: [String] })
  metadata_messages!: string[];

  @ApiBoolean('The metadata has every required message (`publish_epoch`, `claim_single`, `challenge_epoch`).')
  required_messages_present!: boolean;

  @ApiBooleanOrNull('The chain answered; null when not checked.')
  chain_reachable!: boolean | null;

  @ApiIntegerOrNull('Latest block number seen.')
  latest_block!: number | null;

  @ApiBooleanOrNull('Contract info exists on chain; null when not checked.')
  contract_info_present!: boolean | null;

  @ApiIntegerOrNull('Free balance of the contract account, in planck.')
  contract_account_free!: number | null;

  @ApiIntegerOrNull('Reserved balance of the contract account, in planck.')
  contract_account_reserved!: number | null;

  @ApiTextOrNull('Why a check failed.')
  error!: string | null;
}
