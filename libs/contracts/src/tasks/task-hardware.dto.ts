import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsNumber, Max, Min } from 'class-validator';
import { stacked } from '../common/request-fields';

/** Most GPUs a task may ask for, or a validator may declare. */
export const MAX_GPU_COUNT = 64;
/** Largest memory of one GPU a task may ask for, or a validator may declare, in GB. */
export const MAX_GPU_MEMORY_GB = 4096;

/** The bounds of a GPU count, asked for or declared: an integer from 0 to MAX_GPU_COUNT. */
export function GpuCountBounds(): PropertyDecorator {
  return stacked(IsInt(), Min(0), Max(MAX_GPU_COUNT));
}

/** Memory per GPU in GB (10^9 bytes), asked for or declared: a finite number from 0 to MAX_GPU_MEMORY_GB, 0 when absent. */
export function GpuMemoryGb(description: string): PropertyDecorator {
  return stacked(
    ApiPropertyOptional({ description, type: Number, minimum: 0, maximum: MAX_GPU_MEMORY_GB, default: 0 }),
    IsNumber({ allowNaN: false, allowInfinity: false }),
    Min(0),
    Max(MAX_GPU_MEMORY_GB),
  );
}

/**
 * What a validator needs to replay a task (our extension, not in the spec). Memory is per GPU and in GB of
 * 10^9 bytes, the unit cards are sold by (an "80 GB" card reports 81559 MiB, which is 85.5 GB).
 */
export class TaskHardwareDto {
  @ApiProperty({ description: 'GPUs a validator must expose to the benchmark; 0 for a CPU task.', type: 'integer', minimum: 0, maximum: MAX_GPU_COUNT })
  @GpuCountBounds()
  gpu_count!: number;

  @GpuMemoryGb('Memory each of the validator\'s GPUs must have, in GB (10^9 bytes); 0 asks for none.')
  gpu_memory_gb = 0;
}
