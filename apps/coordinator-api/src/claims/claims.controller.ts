import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentAuth, HotkeyPrincipal, Public, StakeGated } from '@rcs/auth';
import { ApiValidationFailure, ApiErrors, ClaimDto, ClaimQueryDto, CreateTaskClaimDto, ErrorCode, SIGNATURE_ERRORS } from '@rcs/contracts';
import { toClaimDto } from './claim.mapper';
import { ClaimsService } from './claims.service';
import { PublicListRoute } from '../common/list-route';

@ApiTags('claims')
@Controller('api/v1')
export class ClaimsController {
  constructor(private readonly claims: ClaimsService) {}

  @PublicListRoute('claims', ClaimDto, 'Query fails validation (status, limit 1..1000, offset >= 0).')
  @ApiOperation({
    summary: 'List claims, newest first',
    description:
      'Filtered by task and status, paged. An active claim past its expires_at is expired before it is listed. Every row carries ' +
      'the participation disclaimer (as BitSota\'s do).',
  })
  async list(@Query() query: ClaimQueryDto): Promise<ClaimDto[]> {
    return (await this.claims.list(query)).map((claim) => toClaimDto(claim, { withDisclaimer: true }));
  }

  @Get('claims/:claim_id')
  @Public()
  @ApiOperation({
    summary: 'One claim',
    description: 'Public, like the list (a client finds the task of its claim here). An active claim past its expires_at is expired first.',
  })
  @ApiParam({ name: 'claim_id', description: 'Claim id (uuid); anything else is 404 `claim_not_found`.' })
  @ApiOkResponse({ type: ClaimDto, description: 'The claim, with the participation disclaimer.' })
  @ApiErrors(ErrorCode.ClaimNotFound)
  async get(@Param('claim_id') claimId: string): Promise<ClaimDto> {
    return toClaimDto(await this.claims.get(claimId), { withDisclaimer: true });
  }

  @Post('tasks/:task_id/claim')
  @StakeGated()
  @ApiOperation({
    summary: 'Claim a live task',
    description:
      'One active claim per task and miner; it expires after the claim TTL. base_submission_id, when given, must name a ' +
      'submission of the same task. Rate limited per hotkey.',
  })
  @ApiCreatedResponse({ type: ClaimDto, description: 'The active claim, with the participation disclaimer.' })
  @ApiValidationFailure('Body bounds, unknown properties, or base_submission_invalid.')
  @ApiErrors(...SIGNATURE_ERRORS, ErrorCode.InsufficientMinerStake, ErrorCode.TaskNotFound, ErrorCode.TaskNotLive, ErrorCode.DuplicateActiveClaim, [ErrorCode.RateLimited, '(with Retry-After)'], [ErrorCode.ChainUnavailable, 'the stake gate cannot reach the chain'])
  async claimTask(
    @CurrentAuth() miner: HotkeyPrincipal,
    @Param('task_id') taskId: string,
    @Body() body: CreateTaskClaimDto,
  ): Promise<ClaimDto> {
    return toClaimDto(await this.claims.claimTask(taskId, miner.hotkey, body), { withDisclaimer: true });
  }

  @Post('claims/:claim_id/cancel')
  @HttpCode(200)
  @StakeGated()
  @ApiOperation({ summary: 'Cancel your active claim', description: 'Owner only. A work item the claim held returns to open.' })
  @ApiOkResponse({ type: ClaimDto, description: 'The cancelled claim.' })
  @ApiErrors(...SIGNATURE_ERRORS, ErrorCode.NotClaimOwner, ErrorCode.InsufficientMinerStake, ErrorCode.ClaimNotFound, ErrorCode.ClaimNotActive, ErrorCode.ClaimExpired, [ErrorCode.ChainUnavailable, 'the stake gate cannot reach the chain'])
  async cancel(@CurrentAuth() miner: HotkeyPrincipal, @Param('claim_id') claimId: string): Promise<ClaimDto> {
    return toClaimDto(await this.claims.cancel(claimId, miner.hotkey));
  }
}
