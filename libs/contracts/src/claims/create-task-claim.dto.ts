import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Length } from 'class-validator';

/** Body of `POST /api/v1/tasks/{task_id}/claim` (signed). */
export class CreateTaskClaimDto {
  @ApiProperty({ type: String, description: 'What the miner intends to try.', minLength: 8, maxLength: 4000 })
  @IsString()
  @Length(8, 4000)
  claim_description!: string;

  @ApiPropertyOptional({ description: 'A submission of the same task this work builds on.', type: String, nullable: true, default: null })
  @IsOptional()
  @IsString()
  base_submission_id: string | null = null;
}
