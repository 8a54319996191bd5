import type { ClaimEpochDto, LeaderboardEntryDto, SotaDto } from '@rcs/contracts';
import { useState } from 'preact/hooks';
import type { Pool } from '../api/services';
import { Alpha, Hash, Hotkey, LiveBadge, Loaded, Rank, Time, useEvents, useLoad } from '../components/common';
import { Section, Table, type Column } from '../components/layout';
import { readPayout } from '../api/payout';
import { checkHotkey } from '../logic/hotkey';
import { formatMetric } from '../logic/format';
import type { Payout } from '../logic/payout';
import { places } from '../logic/ranking';
import { href } from '../logic/route';
import { PayoutFacts } from './payout-facts';
import { POOL_EVENTS } from '../logic/live';

const EPOCHS_SHOWN = 10;

async function readPool(pool: Pool) {
  const [leaderboard, sota, list] = await Promise.all([pool.leaderboard(), pool.sota(), pool.epochs()]);
  const epochs = await Promise.all(list.epochs.slice(0, EPOCHS_SHOWN).map((epoch) => pool.epoch(epoch)));
  return { leaderboard, sota, epochs, defaultEpoch: list.default_epoch };
}

function leaderboardColumns(rows: LeaderboardEntryDto[]): Column<LeaderboardEntryDto>[] {
  // The pool ranks by reputation then hotkey; equal reputations are a tie, whatever order the pool broke it in.
  const ties = places(rows, (entry) => entry.reputation);
  return [
  { title: 'Rank', cell: (_entry, i) => <Rank place={ties[i]} /> },
  { title: 'Miner', cell: (entry) => <Hotkey value={entry.hotkey} /> },
  { title: 'Reputation', cell: (entry) => formatMetric(entry.reputation) },
  { title: 'Evaluations', cell: (entry) => entry.evaluations },
  { title: 'Evolutions', cell: (entry) => entry.evolutions },
  { title: 'Last seen', cell: (entry) => <Time value={entry.last_seen_at} /> },
  ];
}

function epochColumns(pool: Pool): Column<ClaimEpochDto>[] {
  return [
    { title: 'Epoch', cell: (epoch) => epoch.epoch },
    { title: 'Status', cell: (epoch) => epoch.status },
    { title: 'Root', cell: (epoch) => <Hash value={epoch.root} /> },
    { title: 'Leaves', cell: (epoch) => epoch.leaf_count },
    { title: 'Total', cell: (epoch) => <Alpha rao={epoch.total_amount} /> },
    { title: 'Published', cell: (epoch) => <Time value={epoch.published_at} /> },
    { title: 'Allocation', cell: (epoch) => <a href={pool.allocationUrl(epoch.epoch)}>allocation of epoch {epoch.epoch}</a> },
  ];
}

const SOTA_COLUMNS: Column<SotaDto>[] = [
  { title: 'Task type', cell: (row) => row.task_type },
  { title: 'SOTA threshold', cell: (row) => formatMetric(row.sota_threshold) },
  { title: 'Result', cell: (row) => row.result_id ?? '—' },
  { title: 'Updated', cell: (row) => <Time value={row.updated_at} /> },
];

/** Pool miners, SOTA, payout epochs and a claim lookup whose proof is checked here, in the browser. */
export function PoolPage({ pool }: { pool: Pool }) {
  const [load, reload] = useLoad(() => readPool(pool), [pool]);
  const live = useEvents(pool.eventsUrl(), POOL_EVENTS, () => reload());
  return (
    <>
      <h1>Pool</h1>
      <LiveBadge state={live} />
      <Loaded load={load} label="the pool">
        {({ leaderboard, sota, epochs, defaultEpoch }) => (
          <>
            <Section id="leaderboard" title="Miners leaderboard">
              <Table
                columns={leaderboardColumns(leaderboard)}
                rows={leaderboard}
                rowKey={(entry) => entry.hotkey}
                rowProps={() => ({ class: 'pool-miner' })}
                empty="No pool miner yet: miners register with POST /api/v1/miners/register and take leases."
              />
            </Section>
            <SotaSection pool={pool} initial={sota} />
            <Section id="epochs" title="Payout epochs">
              <Table
                columns={epochColumns(pool)}
                rows={epochs}
                rowKey={(epoch) => epoch.epoch}
                rowProps={() => ({ class: 'epoch' })}
                empty="No epoch yet: the pool stores one per window once the reward snapshot has scores."
              />
            </Section>
            <ClaimLookup pool={pool} epoch={defaultEpoch ?? epochs[0]?.epoch ?? null} />
          </>
        )}
      </Loaded>
    </>
  );
}

function SotaSection({ pool, initial }: { pool: Pool; initial: SotaDto }) {
  const [rows, setRows] = useState([initial]);
  const [taskType, setTaskType] = useState('');
  const [error, setError] = useState<string | null>(null);
  const add = (event: Event) => {
    event.preventDefault();
    const wanted = taskType.trim();
    if (!wanted) return;
    pool.sota(wanted).then(
      (sota) => {
        setError(null);
        setRows((known) => [...known.filter((row) => row.task_type !== sota.task_type), sota]);
      },
      (e: unknown) => setError(e instanceof Error ? e.message : String(e)),
    );
  };
  return (
    <Section id="sota" title="State of the art per task type">
      <Table columns={SOTA_COLUMNS} rows={rows} rowKey={(row) => row.task_type} />
      <form onSubmit={add} class="inline">
        <label for="task-type">Another task type</label>
        <input id="task-type" name="task_type" value={taskType} onInput={(e) => setTaskType(e.currentTarget.value)} pattern="[a-z0-9_]{1,64}" />
        <button type="submit">Show its SOTA</button>
      </form>
      {error ? <p role="alert" class="error">{error}</p> : null}
    </Section>
  );
}

type Lookup = { state: 'idle' } | { state: 'busy' } | { state: 'invalid'; message: string } | { state: 'error'; message: string } | { state: 'done'; hotkey: string; payout: Payout };

function ClaimLookup({ pool, epoch }: { pool: Pool; epoch: number | null }) {
  const [hotkey, setHotkey] = useState('');
  const [lookup, setLookup] = useState<Lookup>({ state: 'idle' });
  const submit = (event: Event) => {
    event.preventDefault();
    if (epoch === null) return;
    // Checked here first: a typo is told at once, and the pool is asked for the canonical spelling only.
    const check = checkHotkey(hotkey);
    if (!check.ok) {
      setLookup({ state: 'invalid', message: `Not looked up: ${check.reason}.` });
      return;
    }
    setLookup({ state: 'busy' });
    readPayout(pool, check.canonical).then(
      (payout) => setLookup({ state: 'done', hotkey: check.canonical, payout }),
      (e: unknown) => setLookup({ state: 'error', message: e instanceof Error ? e.message : String(e) }),
    );
  };
  return (
    <Section id="claim" title="Claim lookup">
      {epoch === null ? (
        <p class="muted">No epoch to claim from yet.</p>
      ) : (
        <>
          <p>A hotkey's payout in the newest epoch: its claim package, the Merkle proof checked in this browser against the epoch's root, and what a claim pays now.</p>
          <form onSubmit={submit} class="inline" noValidate>
            <label for="claim-hotkey">Hotkey (SS58)</label>
            <input id="claim-hotkey" name="hotkey" value={hotkey} onInput={(e) => setHotkey(e.currentTarget.value)} size={50} autoComplete="off" spellcheck={false} />
            <button type="submit">Look up and verify</button>
          </form>
        </>
      )}
      <div aria-live="polite">
        {lookup.state === 'busy' ? <p role="status">Looking up…</p> : null}
        {lookup.state === 'invalid' || lookup.state === 'error' ? (
          <p role="alert" class="error" data-testid="claim-error">
            {lookup.message}
          </p>
        ) : null}
        {lookup.state === 'done' ? <LookupResult hotkey={lookup.hotkey} payout={lookup.payout} /> : null}
      </div>
    </Section>
  );
}

function LookupResult({ hotkey, payout }: { hotkey: string; payout: Payout }) {
  const [copied, setCopied] = useState<string | null>(null);
  if (payout.kind !== 'leaf') {
    return (
      <div role={payout.kind === 'unknown_hotkey' ? 'alert' : undefined}>
        <PayoutFacts payout={payout} />
        <p>
          <a href={href({ page: 'miner', hotkey })}>The miner's page</a>
        </p>
      </div>
    );
  }
  const json = JSON.stringify(payout.pkg, null, 2);
  const copy = () => {
    void navigator.clipboard?.writeText(json).then(
      () => setCopied('copied'),
      () => setCopied('the browser refused the clipboard: select the text below'),
    );
  };
  return (
    <>
      <p class={payout.check.ok ? 'verified' : 'error'} data-testid="claim-verdict" data-epoch={payout.pkg.epoch}>
        {payout.check.ok ? '✓ ' : '✗ '}
        {payout.check.message}
      </p>
      <dl class="facts">
        <dt>Epoch</dt>
        <dd>
          {payout.pkg.epoch} ({payout.epoch.status})
        </dd>
        <dt>Leaf index</dt>
        <dd>
          {payout.pkg.index} of {payout.pkg.leaf_count}
        </dd>
        <dt>Hotkey</dt>
        <dd>
          <Hotkey value={payout.pkg.hotkey} />
        </dd>
        <dt>Proof</dt>
        <dd>{payout.pkg.proof.length} hashes</dd>
      </dl>
      <PayoutFacts payout={payout} />
      <p>
        <button type="button" onClick={copy}>
          Copy the package JSON
        </button>{' '}
        <span role="status" data-testid="copy-state">
          {copied ?? ''}
        </span>
      </p>
      <details>
        <summary>Package JSON</summary>
        <pre class="package" data-testid="package-json">
          {json}
        </pre>
      </details>
    </>
  );
}
