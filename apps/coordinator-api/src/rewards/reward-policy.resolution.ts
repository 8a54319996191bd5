import { CompetitionPolicy, RewardPolicyBody } from './reward-policy.defaults';

/** The complete policy of one task's competition; `enabled: false` means the competition is disabled (scores nothing). */
export type ResolvedCompetitionPolicy = CompetitionPolicy;

/**
 * DECISIONS §7: `competition_overrides[slug]`, else `competition_overrides[id]`, else
 * `competition_defaults`. The entry found is taken whole, never merged with `competition_defaults`:
 * an override's omitted fields already took the spec defaults when it was stored (DTO semantics).
 * Returns a copy, so callers may keep or change it without touching the document.
 */
export function resolveCompetitionPolicy(
  document: Pick<RewardPolicyBody, 'competition_defaults' | 'competition_overrides'>,
  task: { id: string; slug: string },
): ResolvedCompetitionPolicy {
  const overrides = document.competition_overrides;
  // Own keys only: a slug such as `constructor` must not find Object.prototype members.
  const policy = Object.hasOwn(overrides, task.slug)
    ? overrides[task.slug]
    : Object.hasOwn(overrides, task.id)
      ? overrides[task.id]
      : document.competition_defaults;
  return { ...policy };
}
