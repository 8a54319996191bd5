import { VerificationStatus } from '../enums';
import { PageQueryDto } from '../common/page-query.dto';
import { FilterEnum, FilterText } from '../common/request-fields';

/** Query of `GET /api/v1/peer-evaluations`: newest first, paged like the other lists. */
export class PeerEvaluationQueryDto extends PageQueryDto {
  @FilterText('Only evaluations of this submission.')
  submission_id?: string;

  @FilterText('Only evaluations by this hotkey.')
  evaluator_hotkey?: string;

  @FilterEnum(VerificationStatus, 'Only evaluations with this verdict.')
  status?: VerificationStatus;
}
