import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { PageQueryDto } from '../common/page-query.dto';

/** Query of `GET /api/v1/idea-rewards`: newest first, paged like the other lists. */
export class IdeaRewardQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ type: String, description: 'Only rewards of this task.' })
  @IsOptional()
  @IsString()
  task_id?: string;

  @ApiPropertyOptional({ type: String, description: 'Only rewards where this submission is the idea or the improvement.' })
  @IsOptional()
  @IsString()
  submission_id?: string;

  @ApiPropertyOptional({ type: String, description: 'Only rewards of this proposer.' })
  @IsOptional()
  @IsString()
  proposer_hotkey?: string;

  @ApiPropertyOptional({ type: String, description: 'Only rewards of this implementer.' })
  @IsOptional()
  @IsString()
  implementer_hotkey?: string;
}
