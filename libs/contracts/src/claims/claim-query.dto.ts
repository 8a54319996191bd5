import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsEnum, IsOptional, IsString } from 'class-validator';
import { ClaimStatus } from '../enums';
import { PageQueryDto } from '../common/page-query.dto';

/** Query of `GET /api/v1/claims`: newest first, paged like the other lists. */
export class ClaimQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ type: String, description: 'Only claims of this task.' })
  @IsOptional()
  @IsString()
  task_id?: string;

  @ApiPropertyOptional({ description: 'Only claims in this status.', enum: ClaimStatus, enumName: 'ClaimStatus' })
  @IsOptional()
  @IsEnum(ClaimStatus)
  status?: ClaimStatus;
}
