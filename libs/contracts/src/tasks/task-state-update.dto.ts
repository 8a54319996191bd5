import { TaskState } from '../enums';
import { ApiBoolean, ApiDateTime, ApiEnum, ApiText } from '../common/api-fields';

/** Answer of pause, resume and close (DECISIONS §3). */
export class TaskStateUpdateDto {
  @ApiText('Task id.')
  task_id!: string;

  @ApiEnum(TaskState, 'State before the operation.')
  previous_state!: TaskState;

  @ApiEnum(TaskState, 'State after the operation.')
  task_state!: TaskState;

  @ApiBoolean('`task_state == "live"`.')
  is_active!: boolean;

  @ApiDateTime('Time of the change.')
  updated_at!: string;
}
