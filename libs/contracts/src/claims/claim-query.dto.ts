import { ClaimStatus } from '../enums';
import { PageQueryDto } from '../common/page-query.dto';
import { FilterEnum, FilterText } from '../common/request-fields';

/** Query of `GET /api/v1/claims`: newest first, paged like the other lists. */
export class ClaimQueryDto extends PageQueryDto {
  @FilterText('Only claims of this task.')
  task_id?: string;

  @FilterEnum(ClaimStatus, 'Only claims in this status.')
  status?: ClaimStatus;
}
