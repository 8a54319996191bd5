import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsEnum, IsOptional, IsString } from 'class-validator';
import { ClaimStatus } from '../enums';

/** Query of `GET /api/v1/claims`. */
export class ClaimQueryDto {
  @ApiPropertyOptional({ type: String, description: 'Only claims of this task.' })
  @IsOptional()
  @IsString()
  task_id?: string;

  @ApiPropertyOptional({ description: 'Only claims in this status.', enum: ClaimStatus, enumName: 'ClaimStatus' })
  @IsOptional()
  @IsEnum(ClaimStatus)
  status?: ClaimStatus;
}
