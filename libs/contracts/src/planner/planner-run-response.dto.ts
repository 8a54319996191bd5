import { ApiProperty } from '@nestjs/swagger';

/** Answer of `POST /api/v1/planner/run` and `/planner/run-agentic`. */
export class PlannerRunResponseDto {
  @ApiProperty({ description: 'Work items created by this run.', type: 'integer', minimum: 0 })
  created!: number;
}
