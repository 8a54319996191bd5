import type { LeaderboardEntryDto, WeightSetterStatusDto } from '@rcs/contracts';
import type { Services } from '../app';
import { readPayout } from '../api/payout';
import type { Coordinator } from '../api/services';
import { Hotkey, Time, useLoad, type Load } from '../components/common';
import { LoadedSection, Section, Table, type Column } from '../components/layout';
import { formatMetric, formatPercent, plural } from '../logic/format';
import { checkHotkey } from '../logic/hotkey';
import { href } from '../logic/route';
import { snapshotShares, weightOf, type MinerShares } from '../logic/shares';
import { PayoutFacts } from './payout-facts';

/** One accepted result of the miner as the page lists it. */
interface MinerResult {
  task_id: string;
  title: string;
  metric_name: string;
  submission_id: string;
  metric_value: number | null;
  decided_at: string;
  best: boolean;
}

/**
 * The miner's accepted results: its accepted decisions among the dashboard's latest and every change
 * of a competition's best it made (no public route lists a miner's submissions; these two name the miner).
 */
async function readResults(coordinator: Coordinator, hotkey: string, shares: MinerShares | null): Promise<MinerResult[]> {
  const dashboard = await coordinator.dashboard();
  const titles = new Map(dashboard.tasks.map((t) => [t.id, t]));
  const rows = new Map<string, MinerResult>();
  for (const d of dashboard.recent_decisions) {
    if (d.miner_hotkey !== hotkey || String(d.status) !== 'accepted') continue;
    rows.set(d.submission_id, { task_id: d.task_id, title: titles.get(d.task_id)?.title ?? d.task_slug, metric_name: d.metric_name, submission_id: d.submission_id, metric_value: d.verified_metric_value, decided_at: d.decided_at, best: false });
  }
  // Competitions where it scores or decided lately: their best history says which bests it held.
  const tasks = new Set([...(shares?.competitions.map((c) => c.competition_id) ?? []), ...[...rows.values()].map((r) => r.task_id)]);
  const histories = await Promise.all([...tasks].map(async (id) => ({ id, history: await coordinator.history(id) })));
  for (const { id, history } of histories) {
    const task = titles.get(id);
    for (const change of history) {
      if (change.miner_hotkey !== hotkey) continue;
      rows.set(change.submission_id, {
        task_id: id,
        title: task?.title ?? shares?.competitions.find((c) => c.competition_id === id)?.title ?? id,
        metric_name: task?.metric_name ?? '',
        submission_id: change.submission_id,
        metric_value: change.metric_value,
        decided_at: rows.get(change.submission_id)?.decided_at ?? change.changed_at,
        best: true,
      });
    }
  }
  return [...rows.values()].sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : a.decided_at < b.decided_at ? 1 : -1));
}

const RESULT_COLUMNS: Column<MinerResult>[] = [
  { title: 'Competition', rowHeader: true, cell: (r) => <a href={href({ page: 'competition', id: r.task_id })}>{r.title}</a> },
  { title: 'Verified metric', cell: (r) => `${r.metric_name} ${formatMetric(r.metric_value)}`.trim() },
  { title: 'Best', cell: (r) => (r.best ? 'held the best' : '') },
  { title: 'Submission', cell: (r) => <code>{r.submission_id}</code> },
  { title: 'Decided', cell: (r) => <Time value={r.decided_at} /> },
];

const SHARE_COLUMNS: Column<MinerShares['competitions'][number]>[] = [
  { title: 'Competition', rowHeader: true, cell: (c) => <a href={href({ page: 'competition', id: c.competition_id })}>{c.title}</a> },
  { title: 'Score', cell: (c) => formatMetric(c.score) },
  { title: 'Share', cell: (c) => <span class="share">{formatPercent(c.share)}</span> },
];

/** A miner's scoreboard: results, reward shares, weight on chain, pool reputation and payout. */
export function MinerPage({ services, hotkey: spelled }: { services: Services; hotkey: string }) {
  const check = checkHotkey(spelled);
  if (!check.ok) {
    return (
      <>
        <h1>Miner</h1>
        <p role="alert" class="error">
          <code>{spelled}</code>: {check.reason}. <a href={href({ page: 'rewards' })}>See the rewards</a> for the miners with a score.
        </p>
      </>
    );
  }
  return <Miner services={services} hotkey={check.canonical} spelled={spelled} />;
}

function Miner({ services, hotkey, spelled }: { services: Services; hotkey: string; spelled: string }) {
  const { coordinator, pool, weightSetter } = services;
  const [scores] = useLoad(async () => {
    const snapshot = await coordinator.rewardSnapshot();
    const all = snapshotShares(snapshot);
    const mine = all.find((m) => m.hotkey === hotkey) ?? null;
    const results = await readResults(coordinator, hotkey, mine);
    return { snapshot, mine, results, scored: all.length };
  }, [coordinator, hotkey]);
  const [weight] = useLoad(() => (weightSetter ? weightSetter.status().then((status) => ({ status, mine: weightOf(status, hotkey) })) : Promise.resolve(null)), [weightSetter, hotkey]);
  const [reputation] = useLoad(() => pool.leaderboard().then((board): LeaderboardEntryDto | null => board.find((e) => e.hotkey === hotkey) ?? null), [pool, hotkey]);
  const [payout] = useLoad(() => readPayout(pool, hotkey), [pool, hotkey]);
  return (
    <>
      <h1>Miner</h1>
      <p>
        Hotkey <Hotkey value={hotkey} link={false} /> <code class="full-hotkey">{hotkey}</code>
        {spelled.trim() !== hotkey ? <span class="muted"> (the address opened, {spelled}, is another spelling of this key)</span> : null}
      </p>
      <LoadedSection id="miner-rewards" title="Reward share in the current snapshot" load={scores} label="the reward snapshot">
        {({ snapshot, mine }) =>
          mine ? (
            <>
              <p>
                Overall share <strong class="share" data-testid="overall-share">{formatPercent(mine.overall)}</strong> across {plural(mine.competitions.length, 'competition')}, snapshot
                of <Time value={snapshot.generated_at} />.
              </p>
              <Table columns={SHARE_COLUMNS} rows={mine.competitions} rowKey={(c) => c.competition_id} rowProps={() => ({ class: 'miner-share' })} />
            </>
          ) : (
            <p class="muted">No score in the snapshot of <Time value={snapshot.generated_at} />: a score comes with an accepted result.</p>
          )
        }
      </LoadedSection>
      <LoadedSection id="miner-results" title="Accepted results" load={scores} label="the accepted results">
        {({ results }) => (
          <>
            <p class="muted">Among the latest decisions, and every time this miner held a competition's best.</p>
            <Table columns={RESULT_COLUMNS} rows={results} rowKey={(r) => r.submission_id} rowProps={() => ({ class: 'miner-result' })} empty="No accepted result found." />
          </>
        )}
      </LoadedSection>
      <Section id="miner-weight" title="Weight on chain">
        {weightSetter === null ? (
          <p class="muted">Not shown: the UI is not configured with the weight setter's URL.</p>
        ) : (
          <LoadedWeight load={weight} />
        )}
      </Section>
      <LoadedSection id="miner-pool" title="Pool reputation" load={reputation} label="the pool leaderboard">
        {(entry) =>
          entry ? (
            <p data-testid="reputation">
              Reputation {formatMetric(entry.reputation)}, rank {entry.rank} in the pool; {plural(entry.evaluations, 'evaluation')}, {plural(entry.evolutions, 'evolution')}; last seen{' '}
              <Time value={entry.last_seen_at} />.
            </p>
          ) : (
            <p class="muted">Not among the pool's top 100 miners by reputation.</p>
          )
        }
      </LoadedSection>
      <LoadedSection id="miner-payout" title="Payout" load={payout} label="the payout">
        {(p) => <PayoutFacts payout={p} />}
      </LoadedSection>
    </>
  );
}

function LoadedWeight({ load }: { load: Load<{ status: WeightSetterStatusDto; mine: ReturnType<typeof weightOf> } | null> }) {
  if (load.state === 'loading') return <p role="status">Loading the weight setter's status…</p>;
  if (load.state === 'error') return <p role="alert" class="error">Could not read the weight setter's status: {load.message}</p>;
  const data = load.data;
  if (!data) return null;
  const pass = data.status.last_pass;
  if (!pass) return <p class="muted">The weight setter has made no pass yet.</p>;
  return data.mine ? (
    <p data-testid="weight">
      <strong class="share">{formatPercent(data.mine.weight)}</strong> of the validator's weights (uid {data.mine.uid}), pass of <Time value={pass.at} />: {pass.outcome}.
    </p>
  ) : (
    <p class="muted" data-testid="weight">
      No weight in the last pass (<Time value={pass.at} />, {pass.outcome}): a miner needs a uid on the subnet and a score.
    </p>
  );
}
