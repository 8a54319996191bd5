import { SubmissionStatus } from '../enums';
import { PageQueryDto } from '../common/page-query.dto';
import { FilterEnum, FilterText } from '../common/request-fields';


/** Query of `GET /api/v1/submissions`: newest first, paged (DECISIONS §5). */
export class SubmissionQueryDto extends PageQueryDto {
  @FilterText('Only submissions of this task.')
  task_id?: string;

  @FilterEnum(SubmissionStatus, 'Only submissions in this status.')
  status?: SubmissionStatus;
}
