import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsNumber, Max, Min } from 'class-validator';
import { MAX_GPU_COUNT, MAX_GPU_MEMORY_GB } from '../tasks/task-hardware.dto';

/**
 * What a validator's sandbox offers a benchmark, sent with its scan or claim (our extension). A job is leased
 * to it only when its task's `hardware` asks for no more GPUs and no more memory per GPU than this.
 */
export class ValidatorCapabilitiesDto {
  @ApiPropertyOptional({ description: 'GPUs the validator exposes to its sandbox.', type: 'integer', minimum: 0, maximum: MAX_GPU_COUNT, default: 0 })
  @IsInt()
  @Min(0)
  @Max(MAX_GPU_COUNT)
  gpu_count = 0;

  @ApiPropertyOptional({
    description: 'Memory of the smallest of those GPUs, in GB (10^9 bytes); 0 without GPUs or when unknown.',
    type: Number,
    minimum: 0,
    maximum: MAX_GPU_MEMORY_GB,
    default: 0,
  })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(MAX_GPU_MEMORY_GB)
  gpu_memory_gb = 0;
}
