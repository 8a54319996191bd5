import type { RewardSnapshotDto, WeightSetterStatusDto, WeightsPassEntryDto } from '@rcs/contracts';
import type { Coordinator, WeightSetter } from '../api/services';
import { Hotkey, LiveBadge, Loaded, Rank, Time, useEvents, useLoad } from '../components/common';
import { Section, Table, type Column } from '../components/layout';
import { formatMetric, formatPercent, plural } from '../logic/format';
import { places } from '../logic/ranking';
import { scoredWithoutWeight, snapshotShares, type MinerShares } from '../logic/shares';

/** The reward snapshot: each miner's share per competition and overall, the policy, and the weights the validator set. */
export function RewardsPage({ coordinator, weightSetter }: { coordinator: Coordinator; weightSetter: WeightSetter | null }) {
  const [load, reload] = useLoad(() => coordinator.rewardSnapshot(), [coordinator]);
  const [weights, reloadWeights] = useLoad(() => (weightSetter ? weightSetter.status() : Promise.resolve(null)), [weightSetter]);
  const live = useEvents(coordinator.eventsUrl(), ['snapshot_rebuilt'], () => {
    reload();
    reloadWeights();
  });
  return (
    <>
      <h1>Rewards</h1>
      <LiveBadge state={live} />
      <Loaded load={load} label="the reward snapshot">
        {(snapshot) => <Snapshot snapshot={snapshot} />}
      </Loaded>
      <Section id="weights" title="Weights set by the validator">
        {weightSetter === null ? (
          <p class="muted">The UI is not configured with the weight setter's URL (config.json's <code>weight_setter</code>), so the weights on chain are not shown.</p>
        ) : (
          <Loaded load={weights} label="the weight setter's status">
            {(status) => (status ? <Weights status={status} shares={load.state === 'ready' ? snapshotShares(load.data) : []} /> : null)}
          </Loaded>
        )}
      </Section>
    </>
  );
}

type MinerScore = RewardSnapshotDto['competitions'][number]['miners'][number];

function minerColumns(shareOf: (hotkey: string) => number, ranks: ReturnType<typeof places>): Column<MinerScore>[] {
  return [
    { title: 'Rank', cell: (_m, i) => <Rank place={ranks[i]} /> },
    { title: 'Miner', cell: (miner) => <Hotkey value={miner.miner_hotkey} /> },
    { title: 'Score', cell: (miner) => formatMetric(miner.score) },
    { title: 'Share', cell: (miner) => <span class="share">{formatPercent(shareOf(miner.miner_hotkey))}</span> },
  ];
}

function overallColumns(ranks: ReturnType<typeof places>): Column<MinerShares>[] {
  return [
    { title: 'Rank', cell: (_m, i) => <Rank place={ranks[i]} /> },
    { title: 'Miner', cell: (m) => <Hotkey value={m.hotkey} /> },
    { title: 'Overall share', cell: (m) => <span class="share">{formatPercent(m.overall)}</span> },
    { title: 'Competitions', cell: (m) => m.competitions.map((c) => `${c.slug} ${formatPercent(c.share)}`).join(', ') },
  ];
}

function Snapshot({ snapshot }: { snapshot: RewardSnapshotDto }) {
  const policy = snapshot.reward_policy;
  const defaults = policy.competition_defaults;
  const shares = snapshotShares(snapshot);
  const overallRanks = places(shares, (m) => m.overall);
  return (
    <>
      <p>
        Snapshot generated <Time value={snapshot.generated_at} /> (<code>{snapshot.generated_at}</code>), {plural(snapshot.competition_count, 'competition')}, scores
        decayed over {plural(snapshot.score_ema_days, 'day')}.
      </p>
      <Section id="overall" title="Overall shares">
        <p class="muted">
          A miner's share of a competition is its score over the competition's total; overall, competitions with scores count by their weight (as the
          weight setter's <code>local</code> mode splits them).
        </p>
        <Table columns={overallColumns(overallRanks)} rows={shares} rowKey={(m) => m.hotkey} rowProps={(m) => ({ class: 'overall-miner', 'data-hotkey': m.hotkey })} empty="No miner has a score yet." />
      </Section>
      <Section id="policy" title="Policy">
        <dl class="facts">
          <dt>Validator weights</dt>
          <dd>
            mode {policy.validator_weights.mode}, {plural(policy.validator_weights.targets.length, 'fixed target')}
          </dd>
          <dt>Competition defaults</dt>
          <dd>
            {defaults.scoring_mode}, {defaults.reward_scope}, accepted-reward floor {defaults.accepted_reward_floor_mode}
          </dd>
          <dt>Overrides</dt>
          <dd>{plural(Object.keys(policy.competition_overrides).length, 'competition')}</dd>
          <dt>Pools</dt>
          <dd>{policy.pools.length === 0 ? 'none' : policy.pools.map((pool) => pool.label).join(', ')}</dd>
        </dl>
      </Section>
      <h2>Scores per competition</h2>
      {snapshot.competitions.length === 0 ? (
        <p class="muted">No competition in the snapshot yet: it lists every competition once one exists.</p>
      ) : (
        snapshot.competitions.map((competition) => {
          const total = competition.miners.reduce((sum, m) => sum + m.score, 0);
          const ranks = places(competition.miners, (m) => m.score);
          return (
            <section key={competition.competition_id} aria-labelledby={`c-${competition.competition_id}`}>
              <h3 id={`c-${competition.competition_id}`}>
                {competition.title} <span class="muted">({competition.slug}, weight {formatMetric(competition.weight)}, {competition.scoring_mode})</span>
              </h3>
              <Table
                columns={minerColumns((hotkey) => (competition.miners.find((m) => m.miner_hotkey === hotkey)?.score ?? 0) / total, ranks)}
                rows={competition.miners}
                rowKey={(miner) => miner.miner_hotkey}
                rowProps={() => ({ class: 'reward-miner' })}
                empty="No miner has a score here yet."
              />
            </section>
          );
        })
      )}
    </>
  );
}

const WEIGHT_COLUMNS: Column<WeightsPassEntryDto>[] = [
  { title: 'UID', cell: (w) => w.uid },
  { title: 'Hotkey', cell: (w) => (w.hotkey ? <Hotkey value={w.hotkey} /> : <span class="muted">uid {w.uid}</span>) },
  { title: 'Weight', cell: (w) => <span class="share">{formatPercent(w.weight)}</span> },
  { title: 'u16 value', cell: (w) => w.value },
];

function Weights({ status, shares }: { status: WeightSetterStatusDto; shares: MinerShares[] }) {
  const pass = status.last_pass;
  if (!pass) return <p class="muted">The weight setter has made no pass yet.</p>;
  const unweighted = scoredWithoutWeight(shares, status);
  return (
    <>
      <p>
        Validator <Hotkey value={status.hotkey} link={false} />: last pass <Time value={pass.at} />, outcome <strong>{pass.outcome}</strong>
        {pass.reason ? ` (${pass.reason})` : ''}
        {pass.mode ? `, mode ${pass.mode}` : ''}
        {pass.block !== null ? `, block ${pass.block}` : ''}
        {status.last_reveal ? `; last reveal ${status.last_reveal.outcome} at block ${status.last_reveal.block}` : ''}.
      </p>
      {unweighted.length > 0 ? (
        <p class="muted" data-testid="no-uid">
          {plural(unweighted.length, 'scored miner')} got no weight: they hold no uid on the subnet, and the <code>local</code> mode drops a hotkey without one and gives what is
          left to uid 0 (on the local stack's dev chain the demo's miners have none). A miner registers a uid to be weighted:{' '}
          {unweighted.map((m) => (
            <Hotkey key={m.hotkey} value={m.hotkey} />
          ))}
          .
        </p>
      ) : null}
      <Table columns={WEIGHT_COLUMNS} rows={pass.weights} rowKey={(w) => w.uid} rowProps={() => ({ class: 'weight' })} empty="The last pass set no weights." />
    </>
  );
}
