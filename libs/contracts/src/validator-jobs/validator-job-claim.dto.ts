import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';

/** Optional body of `POST /api/v1/validator/jobs/claim`: restrict the claim to one task. */
export class ValidatorJobClaimDto {
  @ApiPropertyOptional({ description: 'Only jobs of this task.', type: String, nullable: true, default: null })
  @IsOptional()
  @IsString()
  task_id: string | null = null;

  @ApiPropertyOptional({ description: 'Only jobs of the task with this slug.', type: String, nullable: true, default: null })
  @IsOptional()
  @IsString()
  task_slug: string | null = null;
}
