const DISCLAIMER_MARKDOWN = `# Participation disclaimer

Participation in this subnet's research competitions is voluntary and at your own risk.

- **No reward guarantee.** Claiming a task, submitting work or being verified guarantees no reward,
  payout, emission, ranking or validator acceptance. Rewards, if any, follow the reward policy and
  the published claim epochs in force at the time, which operators may change.
- **No acceptance guarantee.** Validators replay every submission independently; a submission may be
  rejected or end in error whatever metrics its author claimed.
- **No ranking guarantee.** Best results, scores and leaderboards can change as other submissions are
  verified, as policies change, or when a task is paused or closed.
- **Infrastructure may fail or change.** The coordinator, validators, payout service, chain
  endpoints and claim contract may be unavailable, fail, lose data, be upgraded or be retired, with
  or without notice.

Only the published claim package of the latest epoch is the source of truth for a payout.
`;

/** The fixed disclaimer payload (spec "Participation disclaimer"), served by coordinator and pool alike. */
export const PARTICIPATION_DISCLAIMER = {
  code: 'no_reward_guarantee',
  version: '2026-11-01',
  title: 'Participation guarantees no reward',
  must_display: true,
  url: '/api/v1/disclaimer.md',
  summary:
    'Participation guarantees no reward, payout, ranking or validator acceptance, and the infrastructure may fail or change at any time.',
  text: DISCLAIMER_MARKDOWN,
  full_text: DISCLAIMER_MARKDOWN,
} as const;
