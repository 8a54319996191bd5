import { Body, Controller, Get, HttpCode, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Admin } from '@rcs/auth';
import { ApiValidationFailure, ApiErrors, ErrorCode, RewardPolicyDto, RewardPolicyVersionDto, UpdateRewardPolicyDto } from '@rcs/contracts';
import { toRewardPolicyDto, toRewardPolicyVersionDto } from './reward-policy.mapper';
import { RewardPolicyService } from './reward-policy.service';


@ApiTags('reward-policy')
@Controller('api/v1/reward-policy')
export class RewardPolicyController {
  constructor(private readonly policy: RewardPolicyService) {}

  @Get()
  @Admin()
  @ApiOperation({
    summary: 'The reward policy document in force',
    description: 'Admin only. The newest stored version with every default filled in; before any PUT, the defaults at version 1.',
  })
  @ApiOkResponse({ type: RewardPolicyDto, description: 'The policy document.' })
  @ApiErrors(ErrorCode.InvalidAdminToken, [ErrorCode.AdminUnconfigured, 'ADMIN_TOKENS is not set'])
  async get(): Promise<RewardPolicyDto> {
    return toRewardPolicyDto(await this.policy.current());
  }

  @Put()
  @Admin()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Replace the reward policy document',
    description:
      'Admin only. Stores the whole document as a new version; omitted parts take the spec defaults (an override entry is a complete ' +
      'competition policy: its omitted fields take the spec defaults, not `competition_defaults`). `version` must be above the stored ' +
      'version; every version is kept. The reward snapshot is rebuilt.',
  })
  @ApiOkResponse({ type: RewardPolicyDto, description: 'The stored document, defaults applied.' })
  @ApiValidationFailure('Body outside the spec bounds or with unknown properties, at any level; one item per violation.')
  @ApiErrors([ErrorCode.StalePolicyVersion, '(version not above the stored one), with `version` and `current_version`'], ErrorCode.InvalidAdminToken, [ErrorCode.AdminUnconfigured, 'ADMIN_TOKENS is not set'])
  async replace(@Body() body: UpdateRewardPolicyDto): Promise<RewardPolicyDto> {
    return toRewardPolicyDto(await this.policy.replace(body));
  }

  @Get('versions')
  @Admin()
  @ApiOperation({ summary: 'Every stored version of the reward policy', description: 'Admin only. Version numbers and when each was stored, newest first.' })
  @ApiOkResponse({ type: [RewardPolicyVersionDto], description: 'Newest first; always holds at least version 1.' })
  @ApiErrors(ErrorCode.InvalidAdminToken, [ErrorCode.AdminUnconfigured, 'ADMIN_TOKENS is not set'])
  async versions(): Promise<RewardPolicyVersionDto[]> {
    return (await this.policy.versions()).map(toRewardPolicyVersionDto);
  }
}
