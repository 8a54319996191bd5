import type { RewardSnapshotDto } from '@rcs/contracts';
import type { Coordinator } from '../api/services';
import { Hotkey, LiveBadge, Loaded, Time, useEvents, useLoad } from '../components/common';
import { Section, Table, type Column } from '../components/layout';
import { formatMetric } from '../logic/format';

/** The reward snapshot per competition (miner, score) and the policy it was computed with. */
export function RewardsPage({ coordinator }: { coordinator: Coordinator }) {
  const [load, reload] = useLoad(() => coordinator.rewardSnapshot(), [coordinator]);
  const live = useEvents(coordinator.eventsUrl(), ['snapshot_rebuilt'], () => reload());
  return (
    <>
      <h1>Rewards</h1>
      <LiveBadge state={live} />
      <Loaded load={load} label="the reward snapshot">
        {(snapshot) => <Snapshot snapshot={snapshot} />}
      </Loaded>
    </>
  );
}

type MinerScore = RewardSnapshotDto['competitions'][number]['miners'][number];

const MINER_COLUMNS: Column<MinerScore>[] = [
  { title: 'Miner', cell: (miner) => <Hotkey value={miner.miner_hotkey} /> },
  { title: 'Score', cell: (miner) => formatMetric(miner.score) },
];

function Snapshot({ snapshot }: { snapshot: RewardSnapshotDto }) {
  const policy = snapshot.reward_policy;
  const defaults = policy.competition_defaults;
  return (
    <>
      <p>
        Snapshot generated <Time value={snapshot.generated_at} /> (<code>{snapshot.generated_at}</code>), {snapshot.competition_count} competitions, scores
        decayed over {snapshot.score_ema_days} days.
      </p>
      <Section id="policy" title="Policy">
        <dl class="facts">
          <dt>Validator weights</dt>
          <dd>mode {policy.validator_weights.mode}, {policy.validator_weights.targets.length} fixed targets</dd>
          <dt>Competition defaults</dt>
          <dd>
            {defaults.scoring_mode}, {defaults.reward_scope}, accepted-reward floor {defaults.accepted_reward_floor_mode}
          </dd>
          <dt>Overrides</dt>
          <dd>{Object.keys(policy.competition_overrides).length} competitions</dd>
          <dt>Pools</dt>
          <dd>{policy.pools.length === 0 ? 'none' : policy.pools.map((pool) => pool.label).join(', ')}</dd>
        </dl>
      </Section>
      <h2>Scores per competition</h2>
      {snapshot.competitions.length === 0 ? (
        <p class="muted">No competition in the snapshot yet: it lists every competition once one exists.</p>
      ) : (
        snapshot.competitions.map((competition) => (
          <section key={competition.competition_id} aria-labelledby={`c-${competition.competition_id}`}>
            <h3 id={`c-${competition.competition_id}`}>
              {competition.title} <span class="muted">({competition.slug}, weight {formatMetric(competition.weight)}, {competition.scoring_mode})</span>
            </h3>
            <Table
              columns={MINER_COLUMNS}
              rows={competition.miners}
              rowKey={(miner) => miner.miner_hotkey}
              rowProps={() => ({ class: 'reward-miner' })}
              empty="No miner has a score here yet."
            />
          </section>
        ))
      )}
    </>
  );
}
