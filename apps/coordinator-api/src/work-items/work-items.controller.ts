import { Body, Controller, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentAuth, HotkeyPrincipal, StakeGated } from '@rcs/auth';
import { ApiValidationFailure, ApiErrors, ClaimDto, CreateWorkItemClaimDto, ErrorCode, SIGNATURE_ERRORS, WorkItemDto, WorkItemQueryDto } from '@rcs/contracts';
import { toClaimDto } from '../claims/claim.mapper';
import { toWorkItemDto } from './work-item.mapper';
import { WorkItemsService } from './work-items.service';
import { PublicListRoute } from '../common/list-route';

@ApiTags('work-items')
@Controller('api/v1/work-items')
export class WorkItemsController {
  constructor(private readonly workItems: WorkItemsService) {}

  @PublicListRoute(undefined, WorkItemDto, 'Query fails validation (status <= 64 characters, limit 1..1000, offset >= 0).')
  @ApiOperation({ summary: 'List work items, newest first', description: 'Filtered by task and status (open, claimed, completed, cancelled), paged.' })
  async list(@Query() query: WorkItemQueryDto): Promise<WorkItemDto[]> {
    return (await this.workItems.list(query)).map(toWorkItemDto);
  }

  @Post(':work_item_id/claim')
  @StakeGated()
  @ApiOperation({
    summary: 'Claim an open work item',
    description:
      "Opens a claim on the item's task (one active claim per task and miner, rate limited per hotkey); the item becomes " +
      'claimed until a submission completes it, or returns to open when the claim expires or is cancelled. ' +
      'claim_description defaults to the item title.',
  })
  @ApiCreatedResponse({ type: ClaimDto, description: 'The active claim, with the participation disclaimer.' })
  @ApiValidationFailure('Body bounds or unknown properties.')
  @ApiErrors(...SIGNATURE_ERRORS, ErrorCode.InsufficientMinerStake, ErrorCode.WorkItemNotFound, ErrorCode.WorkItemNotOpen, ErrorCode.TaskNotLive, ErrorCode.DuplicateActiveClaim, [ErrorCode.RateLimited, '(with Retry-After)'], [ErrorCode.ChainUnavailable, 'the stake gate cannot reach the chain'])
  async claim(
    @CurrentAuth() miner: HotkeyPrincipal,
    @Param('work_item_id') workItemId: string,
    @Body() body: CreateWorkItemClaimDto,
  ): Promise<ClaimDto> {
    return toClaimDto(await this.workItems.claim(workItemId, miner.hotkey, body), { withDisclaimer: true });
  }
}
