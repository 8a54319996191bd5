import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import {
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTags,
  ApiTooManyRequestsResponse,
  ApiUnauthorizedResponse,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import { AuthPrincipal, CurrentAuth, StakeGated } from '@rcs/auth';
import { ClaimDto, ClaimQueryDto, CreateTaskClaimDto, ErrorDetailDto, ValidationErrorDto } from '@rcs/contracts';
import { toClaimDto } from './claim.mapper';
import { ClaimsService } from './claims.service';

/** What `@StakeGated()` admits: a signing hotkey, never an admin token. */
type HotkeyPrincipal = Extract<AuthPrincipal, { kind: 'hotkey' }>;

const UNAUTHORIZED = { type: ErrorDetailDto, description: 'Missing, invalid, stale or replayed signature.' };
const STAKE = { type: ErrorDetailDto, description: '`chain_unavailable`: the stake gate cannot reach the chain.' };

@ApiTags('claims')
@Controller('api/v1')
export class ClaimsController {
  constructor(private readonly claims: ClaimsService) {}

  @Get('claims')
  @ApiOperation({
    summary: 'List claims, newest first',
    description: 'Filtered by task and status, paged. An active claim past its expires_at is expired before it is listed.',
  })
  @ApiOkResponse({ type: [ClaimDto], description: 'Newest first (created_at, then id).' })
  @ApiUnprocessableEntityResponse({ type: ValidationErrorDto, description: 'Query fails validation (status, limit 1..1000, offset >= 0).' })
  async list(@Query() query: ClaimQueryDto): Promise<ClaimDto[]> {
    return (await this.claims.list(query)).map((claim) => toClaimDto(claim));
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
  @ApiUnprocessableEntityResponse({ type: ValidationErrorDto, description: 'Body bounds, unknown properties, or base_submission_invalid.' })
  @ApiUnauthorizedResponse(UNAUTHORIZED)
  @ApiForbiddenResponse({ type: ErrorDetailDto, description: '`insufficient_miner_stake`.' })
  @ApiNotFoundResponse({ type: ErrorDetailDto, description: '`task_not_found`.' })
  @ApiConflictResponse({ type: ErrorDetailDto, description: '`task_not_live`, or `duplicate_active_claim` with the existing `claim_id`.' })
  @ApiTooManyRequestsResponse({ type: ErrorDetailDto, description: '`rate_limited`, with Retry-After.' })
  @ApiServiceUnavailableResponse(STAKE)
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
  @ApiUnauthorizedResponse(UNAUTHORIZED)
  @ApiForbiddenResponse({ type: ErrorDetailDto, description: '`not_claim_owner` or `insufficient_miner_stake`.' })
  @ApiNotFoundResponse({ type: ErrorDetailDto, description: '`claim_not_found`.' })
  @ApiConflictResponse({ type: ErrorDetailDto, description: '`claim_not_active` (submitted or cancelled) or `claim_expired`.' })
  @ApiServiceUnavailableResponse(STAKE)
  async cancel(@CurrentAuth() miner: HotkeyPrincipal, @Param('claim_id') claimId: string): Promise<ClaimDto> {
    return toClaimDto(await this.claims.cancel(claimId, miner.hotkey));
  }
}
