import type { TaskDto } from '@rcs/contracts';

/**
 * A task's held-out exposure budget (DECISIONS §17) in words a miner understands; null when the task releases
 * every verified result exactly (no budget, or one switched off).
 */
export function exposureText(task: Pick<TaskDto, 'heldout_budget' | 'exposure'>): string | null {
  const budget = task.heldout_budget;
  const exposure = task.exposure;
  if (!budget?.enabled || !exposure) return null;
  const rule = `Scores are published on a ${budget.step} grid, and only when they beat the published best by more than ${budget.step}`;
  const released = `${exposure.releases} ${exposure.releases === 1 ? 'result' : 'results'} released on this held-out shard (${exposure.spent_bits} of ${exposure.budget_bits} bits spent)`;
  if (exposure.status === 'exhausted') return `${rule}. No held-out shard is left: new results wait until the operators upload one.`;
  return `${rule}; ${released}. When the bits run out, the next shard takes over and the leader is re-scored on it.`;
}
