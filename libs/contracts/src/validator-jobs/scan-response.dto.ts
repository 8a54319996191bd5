import { ApiProperty } from '@nestjs/swagger';
import { ValidatorJobDto } from './validator-job.dto';

/** Answer of `POST /api/v1/validator/submissions/scan`; `{jobs: []}` when nothing is pending. */
export class ScanResponseDto {
  @ApiProperty({ description: 'Jobs leased to the caller.', type: () => [ValidatorJobDto] })
  jobs!: ValidatorJobDto[];
}
