import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';
import { PageQueryDto } from '../common/page-query.dto';
import { FilterText } from '../common/request-fields';

/** Query of `GET /api/v1/work-items`; `status` is a free string in the spec. Newest first, paged. */
export class WorkItemQueryDto extends PageQueryDto {
  @FilterText('Only items of this task.')
  task_id?: string;

  @ApiPropertyOptional({ type: String, description: 'Only items in this status (e.g. `open`).', maxLength: 64 })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  status?: string;
}
