import { Public } from '@rcs/auth';
import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CLAIM_CONTRACT_PORT, ClaimContractPort } from '@rcs/chain';
import { ApiErrors, OnchainStatusDto } from '@rcs/contracts';

@ApiTags('onchain')
@Controller('api/v1/onchain')
export class OnchainController {
  constructor(@Inject(CLAIM_CONTRACT_PORT) private readonly contract: ClaimContractPort) {}

  @Get('status')
  @Public()
  @ApiErrors()
  @ApiOkResponse({ type: OnchainStatusDto, description: 'Claim contract and chain runtime status, probed now.' })
  status(): Promise<OnchainStatusDto> {
    return this.contract.status();
  }
}
