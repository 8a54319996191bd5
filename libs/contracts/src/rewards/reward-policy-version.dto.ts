import { ApiProperty } from '@nestjs/swagger';
import { ApiDateTime } from '../common/api-fields';

/** One stored version of the reward policy (`GET /api/v1/reward-policy/versions`); every version is kept. */
export class RewardPolicyVersionDto {
  @ApiProperty({ description: 'Document version.', type: 'integer', minimum: 1 })
  version!: number;

  @ApiDateTime('When this version was stored (its `updated_at`).')
  updated_at!: string;
}
