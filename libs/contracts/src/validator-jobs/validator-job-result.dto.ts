import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString } from 'class-validator';
import { VerifyDto } from './verify.dto';

/** Body of `POST /api/v1/validator/jobs/{job_id}/result` (the lease holder). */
export class ValidatorJobResultDto extends VerifyDto {
  @ApiPropertyOptional({ description: "The job's submission, echoed by clients as a consistency check.", type: String, nullable: true, default: null })
  @IsOptional()
  @IsString()
  submission_id: string | null = null;
}
