import { ApiProperty } from '@nestjs/swagger';
import { SubmissionDetailDto } from '../submissions/submission-detail.dto';
import { SubmissionDto } from '../submissions/submission.dto';
import { TaskDto } from '../tasks/task.dto';
import { HeldoutRotationDto } from './heldout-rotation.dto';
import { ReplaySpecDto } from './replay-spec.dto';
import { ApiDateTime, ApiEnum, ApiText } from '../common/api-fields';
import { ValidatorJobReason } from '../enums';

/** A leased validator job: the answer of job claim, and one entry of a scan. */
export class ValidatorJobDto {
  @ApiText('Job id; post the result to `/api/v1/validator/jobs/{job_id}/result`.')
  job_id!: string;

  @ApiText('Submission to replay.')
  submission_id!: string;

  @ApiEnum(ValidatorJobReason, '`decide`: the result decides the pending submission; `rescore`: it re-scores a decided one on the task\'s active held-out shard (DECISIONS §17). Replayed and posted the same way.')
  reason!: ValidatorJobReason;

  @ApiProperty({ description: 'The submission.', type: () => SubmissionDto })
  submission!: SubmissionDto;

  @ApiProperty({ description: 'Its task (public fields).', type: () => TaskDto })
  task!: TaskDto;

  @ApiProperty({ description: 'Everything the replay needs, validator-private fields included.', type: () => ReplaySpecDto })
  replay_spec!: ReplaySpecDto;

  @ApiDateTime('When the lease ends and the job returns to pending.')
  lease_expires_at!: string;

  @ApiProperty({ description: 'The submission detail (compat: clients read `detail.submission`).', type: () => SubmissionDetailDto })
  detail!: SubmissionDetailDto;

  @ApiProperty({ description: "The job's held-out rotation pair, fixed at its first lease (DECISIONS §15).", type: () => HeldoutRotationDto })
  heldout_rotation!: HeldoutRotationDto;
}
