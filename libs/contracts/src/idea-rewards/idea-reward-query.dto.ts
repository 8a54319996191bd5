import { PageQueryDto } from '../common/page-query.dto';
import { FilterText } from '../common/request-fields';

/** Query of `GET /api/v1/idea-rewards`: newest first, paged like the other lists. */
export class IdeaRewardQueryDto extends PageQueryDto {
  @FilterText('Only rewards of this task.')
  task_id?: string;

  @FilterText('Only rewards where this submission is the idea or the improvement.')
  submission_id?: string;

  @FilterText('Only rewards of this proposer.')
  proposer_hotkey?: string;

  @FilterText('Only rewards of this implementer.')
  implementer_hotkey?: string;
}
