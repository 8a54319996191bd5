import { ApiProperty } from '@nestjs/swagger';
import { TaskState } from '../enums';

/** Answer of pause, resume and close (DECISIONS §3). */
export class TaskStateUpdateDto {
  @ApiProperty({ type: String, description: 'Task id.' })
  task_id!: string;

  @ApiProperty({ description: 'State before the operation.', enum: TaskState, enumName: 'TaskState' })
  previous_state!: TaskState;

  @ApiProperty({ description: 'State after the operation.', enum: TaskState, enumName: 'TaskState' })
  task_state!: TaskState;

  @ApiProperty({ type: Boolean, description: '`task_state == "live"`.' })
  is_active!: boolean;

  @ApiProperty({ description: 'Time of the change.', type: String, format: 'date-time' })
  updated_at!: string;
}
