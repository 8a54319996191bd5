import { ApiProperty } from '@nestjs/swagger';
import { AcceptedRewardFloorMode, CompetitionMode, RewardScope, ScoringMode } from '../enums';
import { UpdateRewardPolicyDto } from './reward-policy.dto';
import { ApiDateTime, ApiEnum, ApiInteger, ApiNumber, ApiNumberOrNull, ApiText } from '../common/api-fields';

/** One miner's decayed score in a competition. */
export class MinerScoreDto {
  @ApiText('Miner hotkey.')
  miner_hotkey!: string;

  @ApiNumber('Score, rounded to 12 significant digits; always > 0.')
  score!: number;
}

/** One competition (task) of the snapshot with its resolved policy and scores. */
export class RewardSnapshotCompetitionDto {
  @ApiText('Task id.')
  competition_id!: string;

  @ApiText('Task slug; competitions are sorted by it.')
  slug!: string;

  @ApiText('Task title.')
  title!: string;

  @ApiEnum(CompetitionMode, 'Competition mode.')
  competition_mode!: CompetitionMode;

  @ApiNumber('Share weight within the target pool.')
  weight!: number;

  @ApiText('Pool the competition pays into.')
  target_pool_id!: string;

  @ApiEnum(RewardScope, 'Reward scope.')
  reward_scope!: RewardScope;

  @ApiEnum(ScoringMode, 'Scoring mode.')
  scoring_mode!: ScoringMode;

  @ApiNumber('Duplicate tolerance.')
  accepted_reward_metric_tolerance!: number;

  @ApiEnum(AcceptedRewardFloorMode, 'Floor mode.')
  accepted_reward_floor_mode!: AcceptedRewardFloorMode;

  @ApiNumberOrNull('Floor value of the `fixed` mode.')
  accepted_reward_floor_value!: number | null;

  @ApiNumber('Standard deviations of the stddev floor.')
  accepted_reward_floor_stddevs!: number;

  @ApiInteger('Samples needed before the stddev floor applies.')
  accepted_reward_floor_min_samples!: number;

  @ApiProperty({ description: 'Miners with a positive score, by score descending then hotkey.', type: () => [MinerScoreDto] })
  miners!: MinerScoreDto[];
}

/** `GET /api/v1/reward-snapshot`: read by the weight setter and the payout service (DECISIONS §7). */
export class RewardSnapshotDto {
  @ApiDateTime('Time the scores were computed for.')
  generated_at!: string;

  @ApiNumber('Decay constant D of `exp(-(T - t)/D)`, in days.')
  score_ema_days!: number;

  @ApiInteger('Number of competitions.')
  competition_count!: number;

  @ApiProperty({ description: 'The policy document in force (without `updated_at`).', type: () => UpdateRewardPolicyDto })
  reward_policy!: UpdateRewardPolicyDto;

  @ApiProperty({ description: 'Competitions sorted by slug.', type: () => [RewardSnapshotCompetitionDto] })
  competitions!: RewardSnapshotCompetitionDto[];
}
