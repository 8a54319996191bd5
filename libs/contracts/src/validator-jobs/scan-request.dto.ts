import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, Max, Min } from 'class-validator';
import { ValidatorJobClaimDto } from './validator-job-claim.dto';

export const MAX_SCAN_LIMIT = 16;

/** Optional body of `POST /api/v1/validator/submissions/scan` (DECISIONS §6). */
export class ScanRequestDto extends ValidatorJobClaimDto {
  @ApiPropertyOptional({ description: 'Most jobs to lease in one call.', type: 'integer', minimum: 1, maximum: MAX_SCAN_LIMIT, default: 1 })
  @IsInt()
  @Min(1)
  @Max(MAX_SCAN_LIMIT)
  limit = 1;
}
