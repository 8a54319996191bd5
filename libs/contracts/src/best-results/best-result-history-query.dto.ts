import { PageQueryDto } from '../common/page-query.dto';

/** Query of `GET /api/v1/tasks/{task_id}/best/history`: oldest first, paged like the other lists. */
export class BestResultHistoryQueryDto extends PageQueryDto {}
