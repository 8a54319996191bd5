import { BoundedText, OptionalText } from '../common/request-fields';

/** Body of `POST /api/v1/tasks/{task_id}/claim` (signed). */
export class CreateTaskClaimDto {
  @BoundedText('What the miner intends to try.', 8, 4000)
  claim_description!: string;

  @OptionalText('A submission of the same task this work builds on.')
  base_submission_id: string | null = null;
}
