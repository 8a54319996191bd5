import type { MinerResultsDto, WeightSetterStatusDto } from '@rcs/contracts';
import type { Services } from '../app';
import { readPayout } from '../api/payout';
import { Hotkey, Time, useLoad, type Load } from '../components/common';
import { LoadedSection, Section, Table, type Column } from '../components/layout';
import { formatMetric, formatPercent, plural } from '../logic/format';
import { checkHotkey } from '../logic/hotkey';
import { href } from '../logic/route';
import { snapshotShares, weightOf, type MinerShares } from '../logic/shares';
import { PayoutFacts } from './payout-facts';

type MinerCompetition = MinerResultsDto['competitions'][number];

const RESULT_COLUMNS: Column<MinerCompetition>[] = [
  { title: 'Competition', rowHeader: true, cell: (c) => <a href={href({ page: 'competition', id: c.task_id })}>{c.task_title}</a> },
  { title: 'Accepted', cell: (c) => <span data-testid="accepted-count">{c.accepted}</span> },
  { title: 'Its best result', cell: (c) => <span class="best-value">{`${c.metric_name} ${formatMetric(c.best.metric_value)}`}</span> },
  { title: 'Best', cell: (c) => (c.holds_best ? 'holds the best' : '') },
  { title: 'Submission', cell: (c) => <code>{c.best.submission_id}</code> },
  { title: 'Latest decision', cell: (c) => <Time value={c.latest_decided_at} /> },
];

const SHARE_COLUMNS: Column<MinerShares['competitions'][number]>[] = [
  { title: 'Competition', rowHeader: true, cell: (c) => <a href={href({ page: 'competition', id: c.competition_id })}>{c.title}</a> },
  { title: 'Score', cell: (c) => formatMetric(c.score) },
  { title: 'Share', cell: (c) => <span class="share">{formatPercent(c.share)}</span> },
];

/**
 * The miner's results, where it holds a competition's best showing that best: the coordinator picks a
 * miner's best by the metric's direction alone, but a task with a band and a secondary metric may have
 * made another of its submissions the best (the smaller model inside the band), and the row must not
 * say "holds the best" beside a submission that does not.
 */
async function withHeldBests(coordinator: Services['coordinator'], hotkey: string): Promise<MinerResultsDto> {
  const results = await coordinator.minerResults(hotkey);
  const competitions = await Promise.all(
    results.competitions.map(async (c) => {
      if (!c.holds_best) return c;
      const best = await coordinator.best(c.task_id);
      return best === null || best.submission_id === c.best.submission_id ? c : { ...c, best: { ...c.best, submission_id: best.submission_id, metric_value: best.metric_value, decided_at: best.updated_at } };
    }),
  );
  return { ...results, competitions };
}

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
    return { snapshot, mine, scored: all.length };
  }, [coordinator, hotkey]);
  const [results] = useLoad(() => withHeldBests(coordinator, hotkey), [coordinator, hotkey]);
  const [weight] = useLoad(() => (weightSetter ? weightSetter.status().then((status) => ({ status, mine: weightOf(status, hotkey) })) : Promise.resolve(null)), [weightSetter, hotkey]);
  const [reputation] = useLoad(() => pool.standing(hotkey), [pool, hotkey]);
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
      <LoadedSection id="miner-results" title="Accepted results" load={results} label="the accepted results">
        {({ competitions }) => (
          <>
            <p class="muted">
              Per competition: its accepted submissions, its best result (the competition's best where it holds it, chosen by the task's own rule; else its best value by the metric's
              direction), and whether it holds the competition's best.
            </p>
            <Table columns={RESULT_COLUMNS} rows={competitions} rowKey={(c) => c.task_id} rowProps={() => ({ class: 'miner-result' })} empty="No accepted result yet." />
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
      <LoadedSection id="miner-pool" title="Pool reputation" load={reputation} label="the pool standing">
        {(entry) =>
          entry ? (
            <p data-testid="reputation">
              Reputation {formatMetric(entry.reputation)}, rank {entry.rank} in the pool; {plural(entry.evaluations, 'evaluation')}, {plural(entry.evolutions, 'evolution')}; last seen{' '}
              <Time value={entry.last_seen_at} />.
            </p>
          ) : (
            <p class="muted">Not a pool miner: the pool has never seen this hotkey.</p>
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
