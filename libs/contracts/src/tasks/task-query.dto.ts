import { TaskState } from '../enums';
import { PageQueryDto } from '../common/page-query.dto';
import { FilterEnum } from '../common/request-fields';

/** Query of `GET /api/v1/tasks`: every task by default, newest first, paged like the other lists. */
export class TaskQueryDto extends PageQueryDto {
  @FilterEnum(TaskState, 'Only tasks in this state (e.g. `live` for the ones taking claims).')
  task_state?: TaskState;
}
