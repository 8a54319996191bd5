import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsEnum, IsOptional, IsString } from 'class-validator';
import { SubmissionStatus } from '../enums';
import { PageQueryDto } from '../common/page-query.dto';


/** Query of `GET /api/v1/submissions`: newest first, paged (DECISIONS §5). */
export class SubmissionQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ type: String, description: 'Only submissions of this task.' })
  @IsOptional()
  @IsString()
  task_id?: string;

  @ApiPropertyOptional({ description: 'Only submissions in this status.', enum: SubmissionStatus, enumName: 'SubmissionStatus' })
  @IsOptional()
  @IsEnum(SubmissionStatus)
  status?: SubmissionStatus;
}
