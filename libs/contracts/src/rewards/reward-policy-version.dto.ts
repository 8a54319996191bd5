import { ApiProperty } from '@nestjs/swagger';

/** One stored version of the reward policy (`GET /api/v1/reward-policy/versions`); every version is kept. */
export class RewardPolicyVersionDto {
  @ApiProperty({ description: 'Document version.', type: 'integer', minimum: 1 })
  version!: number;

  @ApiProperty({ description: 'When this version was stored (its `updated_at`).', type: String, format: 'date-time' })
  updated_at!: string;
}
