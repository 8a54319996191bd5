import { VerificationStatus } from '../enums';
import { PageQueryDto } from '../common/page-query.dto';
import { FilterEnum, FilterText } from '../common/request-fields';

/** Query of `GET /api/v1/verifications`: newest first, paged like the other lists. */
export class VerificationQueryDto extends PageQueryDto {
  @FilterText('Only verifications of this submission.')
  submission_id?: string;

  @FilterEnum(VerificationStatus, 'Only verifications with this verdict.')
  status?: VerificationStatus;
}
