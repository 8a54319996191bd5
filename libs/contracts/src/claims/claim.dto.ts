import { ApiPropertyOptional } from '@nestjs/swagger';
import { ClaimStatus } from '../enums';
import { DisclaimerDto } from '../status/disclaimer.dto';
import { ApiDateTime, ApiEnum, ApiText, ApiTextOrNull } from '../common/api-fields';

/** A claim: a miner's time-limited reservation of a task or work item. */
export class ClaimDto {
  @ApiText('Claim id.')
  id!: string;

  @ApiText('Task id.')
  task_id!: string;

  @ApiText('Hotkey of the claiming miner.')
  miner_hotkey!: string;

  @ApiText('What the miner intends to try (empty for a work-item claim without one).')
  claim_description!: string;

  @ApiTextOrNull('Submission this work builds on.')
  base_submission_id!: string | null;

  @ApiTextOrNull('Work item claimed, for a work-item claim.')
  work_item_id!: string | null;

  @ApiEnum(ClaimStatus, 'Claim status.')
  status!: ClaimStatus;

  @ApiDateTime('When an active claim expires.')
  expires_at!: string;

  @ApiDateTime('Creation time.')
  created_at!: string;

  @ApiDateTime('Last change.')
  updated_at!: string;

  @ApiPropertyOptional({ description: 'Disclaimer the client must show.', type: () => DisclaimerDto })
  participation_disclaimer?: DisclaimerDto;
}
