import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';

/** Body of `POST /api/v1/work-items/{work_item_id}/claim` (signed). */
export class CreateWorkItemClaimDto {
  @ApiPropertyOptional({ description: 'What the miner intends to try.', type: String, nullable: true, maxLength: 4000, default: null })
  @IsOptional()
  @IsString()
  @MaxLength(4000)
  claim_description: string | null = null;
}
