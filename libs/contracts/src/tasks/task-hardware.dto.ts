import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsNumber, Max, Min } from 'class-validator';

/** Most GPUs a task may ask for, or a validator may declare. */
export const MAX_GPU_COUNT = 64;
/** Largest memory of one GPU a task may ask for, or a validator may declare, in GB. */
export const MAX_GPU_MEMORY_GB = 4096;

/**
 * What a validator needs to replay a task (our extension, not in the spec). Memory is per GPU and in GB of
 * 10^9 bytes, the unit cards are sold by (an "80 GB" card reports 81559 MiB, which is 85.5 GB).
 */
export class TaskHardwareDto {
  @ApiProperty({ description: 'GPUs a validator must expose to the benchmark; 0 for a CPU task.', type: 'integer', minimum: 0, maximum: MAX_GPU_COUNT })
  @IsInt()
  @Min(0)
  @Max(MAX_GPU_COUNT)
  gpu_count!: number;

  @ApiPropertyOptional({
    description: 'Memory each of the validator\'s GPUs must have, in GB (10^9 bytes); 0 asks for none.',
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
