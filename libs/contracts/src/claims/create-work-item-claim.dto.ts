import { OptionalText } from '../common/request-fields';

/** Body of `POST /api/v1/work-items/{work_item_id}/claim` (signed). */
export class CreateWorkItemClaimDto {
  @OptionalText('What the miner intends to try.', 4000)
  claim_description: string | null = null;
}
