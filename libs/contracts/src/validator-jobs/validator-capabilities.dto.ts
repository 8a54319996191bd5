import { ApiPropertyOptional } from '@nestjs/swagger';
import { GpuCountBounds, GpuMemoryGb, MAX_GPU_COUNT } from '../tasks/task-hardware.dto';

/**
 * What a validator's sandbox offers a benchmark, sent with its scan or claim (our extension). A job is leased
 * to it only when its task's `hardware` asks for no more GPUs and no more memory per GPU than this.
 */
export class ValidatorCapabilitiesDto {
  @ApiPropertyOptional({ description: 'GPUs the validator exposes to its sandbox.', type: 'integer', minimum: 0, maximum: MAX_GPU_COUNT, default: 0 })
  @GpuCountBounds()
  gpu_count = 0;

  @GpuMemoryGb('Memory of the smallest of those GPUs, in GB (10^9 bytes); 0 without GPUs or when unknown.')
  gpu_memory_gb = 0;
}
