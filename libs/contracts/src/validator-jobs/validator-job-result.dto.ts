import { VerifyDto } from './verify.dto';
import { OptionalText } from '../common/request-fields';

/** Body of `POST /api/v1/validator/jobs/{job_id}/result` (the lease holder). */
export class ValidatorJobResultDto extends VerifyDto {
  @OptionalText("The job's submission, echoed by clients as a consistency check.")
  submission_id: string | null = null;
}
