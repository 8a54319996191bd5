import { RewardSnapshotCompetitionDto, RewardSnapshotDto, TaskState } from '@rcs/contracts';
import { RewardPolicyBody, rewardPolicyBody } from './reward-policy.defaults';
import { ResolvedCompetitionPolicy, resolveCompetitionPolicy } from './reward-policy.resolution';
import { CompetitionData, compareCodeUnits, MinerScore, ScoreClock, scoreCompetition, ScoringTask } from './scoring';

/** One competition scored: the task, its resolved policy and its miners' scores. */
export interface ScoredCompetition {
  task: ScoringTask;
  policy: ResolvedCompetitionPolicy;
  miners: MinerScore[];
}

/** Resolves the task's policy (DECISIONS.md §7) and scores it. */
export function scoreTask(policyDocument: RewardPolicyBody, data: CompetitionData, clock: ScoreClock): ScoredCompetition {
  const policy = resolveCompetitionPolicy(policyDocument, data.task);
  return { task: data.task, policy, miners: scoreCompetition(data, policy, clock) };
}

/**
 * The snapshot JSON. Byte-identical for the same input: objects are built in the DTO's field order
 * (no integer-like keys, so insertion order is the output order), the policy through
 * `rewardPolicyBody` (fixed order, overrides sorted), competitions by slug, miners as scored, and
 * numbers already rounded print in their shortest form. A closed task appears only while it has
 * scores; a disabled competition appears with weight 0 and no miners.
 */
export function serializeRewardSnapshot(parts: {
  clock: ScoreClock;
  policyDocument: RewardPolicyBody;
  competitions: readonly ScoredCompetition[];
}): string {
  const competitions = parts.competitions
    .filter((c) => c.task.taskState !== TaskState.Closed || c.miners.length > 0)
    .sort((a, b) => compareCodeUnits(a.task.slug, b.task.slug))
    .map(competitionEntry);
  const snapshot: RewardSnapshotDto = {
    generated_at: new Date(parts.clock.generatedAt).toISOString(),
    score_ema_days: parts.clock.scoreEmaDays,
    competition_count: competitions.length,
    reward_policy: rewardPolicyBody(parts.policyDocument),
    competitions,
  };
  return JSON.stringify(snapshot);
}

/** Scores every competition and serialises the snapshot: the whole of §7 as one pure function. */
export function computeRewardSnapshot(input: {
  clock: ScoreClock;
  policyDocument: RewardPolicyBody;
  competitions: readonly CompetitionData[];
}): string {
  return serializeRewardSnapshot({
    clock: input.clock,
    policyDocument: input.policyDocument,
    competitions: input.competitions.map((data) => scoreTask(input.policyDocument, data, input.clock)),
  });
}

function competitionEntry({ task, policy, miners }: ScoredCompetition): RewardSnapshotCompetitionDto {
  return {
    competition_id: task.id,
    slug: task.slug,
    title: task.title,
    competition_mode: task.competitionMode,
    weight: policy.enabled ? policy.weight : 0,
    target_pool_id: policy.target_pool_id,
    reward_scope: policy.reward_scope,
    scoring_mode: policy.scoring_mode,
    accepted_reward_metric_tolerance: policy.accepted_reward_metric_tolerance,
    accepted_reward_floor_mode: policy.accepted_reward_floor_mode,
    accepted_reward_floor_value: policy.accepted_reward_floor_value,
    accepted_reward_floor_stddevs: policy.accepted_reward_floor_stddevs,
    accepted_reward_floor_min_samples: policy.accepted_reward_floor_min_samples,
    miners: miners.map((m) => ({ miner_hotkey: m.minerHotkey, score: m.score })),
  };
}
