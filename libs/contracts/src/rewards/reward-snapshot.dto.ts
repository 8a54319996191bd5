import { ApiProperty } from '@nestjs/swagger';
import { AcceptedRewardFloorMode, CompetitionMode, RewardScope, ScoringMode } from '../enums';
import { UpdateRewardPolicyDto } from './reward-policy.dto';

/** One miner's decayed score in a competition. */
export class MinerScoreDto {
  @ApiProperty({ type: String, description: 'Miner hotkey.' })
  miner_hotkey!: string;

  @ApiProperty({ description: 'Score, rounded to 12 significant digits; always > 0.', type: Number })
  score!: number;
}

/** One competition (task) of the snapshot with its resolved policy and scores. */
export class RewardSnapshotCompetitionDto {
  @ApiProperty({ type: String, description: 'Task id.' })
  competition_id!: string;

  @ApiProperty({ type: String, description: 'Task slug; competitions are sorted by it.' })
  slug!: string;

  @ApiProperty({ type: String, description: 'Task title.' })
  title!: string;

  @ApiProperty({ description: 'Competition mode.', enum: CompetitionMode, enumName: 'CompetitionMode' })
  competition_mode!: CompetitionMode;

  @ApiProperty({ description: 'Share weight within the target pool.', type: Number })
  weight!: number;

  @ApiProperty({ type: String, description: 'Pool the competition pays into.' })
  target_pool_id!: string;

  @ApiProperty({ description: 'Reward scope.', enum: RewardScope, enumName: 'RewardScope' })
  reward_scope!: RewardScope;

  @ApiProperty({ description: 'Scoring mode.', enum: ScoringMode, enumName: 'ScoringMode' })
  scoring_mode!: ScoringMode;

  @ApiProperty({ description: 'Duplicate tolerance.', type: Number })
  accepted_reward_metric_tolerance!: number;

  @ApiProperty({ description: 'Floor mode.', enum: AcceptedRewardFloorMode, enumName: 'AcceptedRewardFloorMode' })
  accepted_reward_floor_mode!: AcceptedRewardFloorMode;

  @ApiProperty({ description: 'Floor value of the `fixed` mode.', type: Number, nullable: true })
  accepted_reward_floor_value!: number | null;

  @ApiProperty({ description: 'Standard deviations of the stddev floor.', type: Number })
  accepted_reward_floor_stddevs!: number;

  @ApiProperty({ description: 'Samples needed before the stddev floor applies.', type: 'integer' })
  accepted_reward_floor_min_samples!: number;

  @ApiProperty({ description: 'Miners with a positive score, by score descending then hotkey.', type: () => [MinerScoreDto] })
  miners!: MinerScoreDto[];
}

/** `GET /api/v1/reward-snapshot`: read by the weight setter and the payout service (DECISIONS §7). */
export class RewardSnapshotDto {
  @ApiProperty({ description: 'Time the scores were computed for.', type: String, format: 'date-time' })
  generated_at!: string;

  @ApiProperty({ description: 'Decay constant D of `exp(-(T - t)/D)`, in days.', type: Number })
  score_ema_days!: number;

  @ApiProperty({ description: 'Number of competitions.', type: 'integer' })
  competition_count!: number;

  @ApiProperty({ description: 'The policy document in force (without `updated_at`).', type: () => UpdateRewardPolicyDto })
  reward_policy!: UpdateRewardPolicyDto;

  @ApiProperty({ description: 'Competitions sorted by slug.', type: () => [RewardSnapshotCompetitionDto] })
  competitions!: RewardSnapshotCompetitionDto[];
}
