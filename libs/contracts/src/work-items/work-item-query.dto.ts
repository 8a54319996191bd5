import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';

/** Query of `GET /api/v1/work-items`; `status` is a free string in the spec. */
export class WorkItemQueryDto {
  @ApiPropertyOptional({ type: String, description: 'Only items of this task.' })
  @IsOptional()
  @IsString()
  task_id?: string;

  @ApiPropertyOptional({ type: String, description: 'Only items in this status (e.g. `open`).', maxLength: 64 })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  status?: string;
}
