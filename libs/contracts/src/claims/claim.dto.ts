import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ClaimStatus } from '../enums';
import { DisclaimerDto } from '../status/disclaimer.dto';

/** A claim: a miner's time-limited reservation of a task or work item. */
export class ClaimDto {
  @ApiProperty({ type: String, description: 'Claim id.' })
  id!: string;

  @ApiProperty({ type: String, description: 'Task id.' })
  task_id!: string;

  @ApiProperty({ type: String, description: 'Hotkey of the claiming miner.' })
  miner_hotkey!: string;

  @ApiProperty({ type: String, description: 'What the miner intends to try (empty for a work-item claim without one).' })
  claim_description!: string;

  @ApiProperty({ description: 'Submission this work builds on.', type: String, nullable: true })
  base_submission_id!: string | null;

  @ApiProperty({ description: 'Work item claimed, for a work-item claim.', type: String, nullable: true })
  work_item_id!: string | null;

  @ApiProperty({ description: 'Claim status.', enum: ClaimStatus, enumName: 'ClaimStatus' })
  status!: ClaimStatus;

  @ApiProperty({ description: 'When an active claim expires.', type: String, format: 'date-time' })
  expires_at!: string;

  @ApiProperty({ description: 'Creation time.', type: String, format: 'date-time' })
  created_at!: string;

  @ApiProperty({ description: 'Last change.', type: String, format: 'date-time' })
  updated_at!: string;

  @ApiPropertyOptional({ description: 'Disclaimer the client must show.', type: () => DisclaimerDto })
  participation_disclaimer?: DisclaimerDto;
}
