import { exposureText } from './exposure';

const budget = { enabled: true, step: 0.025, bits: 32, delta: 0.05 };

describe('the held-out exposure in words', () => {
  it('says nothing for a task without a budget', () => {
    expect(exposureText({ heldout_budget: null, exposure: null } as never)).toBeNull();
    expect(exposureText({ heldout_budget: { ...budget, enabled: false }, exposure: null } as never)).toBeNull();
  });

  it('states the release rule and what the active shard has released', () => {
    const text = exposureText({ heldout_budget: budget, exposure: { spent_bits: 16, budget_bits: 32, releases: 1, status: 'open' } } as never);
    expect(text).toBe(
      'Scores are published on a 0.025 grid, and only when they beat the published best by more than 0.025; 1 result released on this held-out shard (16 of 32 bits spent). When the bits run out, the next shard takes over and the leader is re-scored on it.',
    );
  });

  it('says when no shard is left', () => {
    const text = exposureText({ heldout_budget: budget, exposure: { spent_bits: 32, budget_bits: 32, releases: 2, status: 'exhausted' } } as never);
    expect(text).toContain('No held-out shard is left');
  });
});
