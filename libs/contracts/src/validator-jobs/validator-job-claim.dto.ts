import { OptionalText } from '../common/request-fields';

/** Optional body of `POST /api/v1/validator/jobs/claim`: restrict the claim to one task. */
export class ValidatorJobClaimDto {
  @OptionalText('Only jobs of this task.')
  task_id: string | null = null;

  @OptionalText('Only jobs of the task with this slug.')
  task_slug: string | null = null;
}
