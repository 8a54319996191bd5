import type { ClaimEpochDto, ClaimPackageDto } from '@rcs/contracts';
import { useState } from 'preact/hooks';
import type { Pool } from '../api/services';
import { Hash, Hotkey, LiveBadge, Loaded, Time, useEvents, useLoad } from '../components/common';
import { checkClaimPackage, type ClaimCheck } from '../logic/claim-check';
import { formatMetric, formatRao } from '../logic/format';
import { POOL_EVENTS } from '../logic/live';

const EPOCHS_SHOWN = 10;

async function readPool(pool: Pool) {
  const [leaderboard, sota, list] = await Promise.all([pool.leaderboard(), pool.sota(), pool.epochs()]);
  const epochs = await Promise.all(list.epochs.slice(0, EPOCHS_SHOWN).map((epoch) => pool.epoch(epoch)));
  return { leaderboard, sota, epochs, defaultEpoch: list.default_epoch };
}

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
            <section aria-labelledby="leaderboard">
              <h2 id="leaderboard">Miners leaderboard</h2>
              {leaderboard.length === 0 ? (
                <p class="muted">No pool miner yet: miners register with POST /api/v1/miners/register and take leases.</p>
              ) : (
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Rank</th>
                      <th scope="col">Miner</th>
                      <th scope="col">Reputation</th>
                      <th scope="col">Evaluations</th>
                      <th scope="col">Evolutions</th>
                      <th scope="col">Last seen</th>
                    </tr>
                  </thead>
                  <tbody>
                    {leaderboard.map((entry) => (
                      <tr key={entry.hotkey} class="pool-miner">
                        <td>{entry.rank}</td>
                        <td>
                          <Hotkey value={entry.hotkey} />
                        </td>
                        <td>{formatMetric(entry.reputation)}</td>
                        <td>{entry.evaluations}</td>
                        <td>{entry.evolutions}</td>
                        <td>
                          <Time value={entry.last_seen_at} />
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </section>
            <SotaSection pool={pool} initial={sota} />
            <section aria-labelledby="epochs">
              <h2 id="epochs">Payout epochs</h2>
              {epochs.length === 0 ? (
                <p class="muted">No epoch yet: the pool stores one per window once the reward snapshot has scores.</p>
              ) : (
                <table>
                  <thead>
                    <tr>
                      <th scope="col">Epoch</th>
                      <th scope="col">Status</th>
                      <th scope="col">Root</th>
                      <th scope="col">Leaves</th>
                      <th scope="col">Total</th>
                      <th scope="col">Published</th>
                      <th scope="col">Allocation</th>
                    </tr>
                  </thead>
                  <tbody>
                    {epochs.map((epoch) => (
                      <tr key={epoch.epoch} class="epoch">
                        <td>{epoch.epoch}</td>
                        <td>{epoch.status}</td>
                        <td>
                          <Hash value={epoch.root} />
                        </td>
                        <td>{epoch.leaf_count}</td>
                        <td>{formatRao(epoch.total_amount)}</td>
                        <td>
                          <Time value={epoch.published_at} />
                        </td>
                        <td>
                          <a href={pool.allocationUrl(epoch.epoch)}>allocation of epoch {epoch.epoch}</a>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
            </section>
            <ClaimLookup pool={pool} epoch={defaultEpoch ?? epochs[0]?.epoch ?? null} />
          </>
        )}
      </Loaded>
    </>
  );
}

function SotaSection({ pool, initial }: { pool: Pool; initial: Awaited<ReturnType<Pool['sota']>> }) {
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
    <section aria-labelledby="sota">
      <h2 id="sota">State of the art per task type</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">Task type</th>
            <th scope="col">SOTA threshold</th>
            <th scope="col">Result</th>
            <th scope="col">Updated</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.task_type}>
              <td>{row.task_type}</td>
              <td>{formatMetric(row.sota_threshold)}</td>
              <td>{row.result_id ?? '—'}</td>
              <td>
                <Time value={row.updated_at} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <form onSubmit={add} class="inline">
        <label for="task-type">Another task type</label>
        <input id="task-type" name="task_type" value={taskType} onInput={(e) => setTaskType(e.currentTarget.value)} pattern="[a-z0-9_]{1,64}" />
        <button type="submit">Show its SOTA</button>
      </form>
      {error ? <p role="alert" class="error">{error}</p> : null}
    </section>
  );
}

type Lookup = { state: 'idle' } | { state: 'busy' } | { state: 'error'; message: string } | { state: 'done'; pkg: ClaimPackageDto; epoch: ClaimEpochDto; check: ClaimCheck };

function ClaimLookup({ pool, epoch }: { pool: Pool; epoch: number | null }) {
  const [hotkey, setHotkey] = useState('');
  const [lookup, setLookup] = useState<Lookup>({ state: 'idle' });
  const submit = (event: Event) => {
    event.preventDefault();
    if (epoch === null || !hotkey.trim()) return;
    setLookup({ state: 'busy' });
    Promise.all([pool.claimPackage(epoch, hotkey.trim()), pool.epoch(epoch)]).then(
      ([pkg, meta]) => setLookup({ state: 'done', pkg, epoch: meta, check: checkClaimPackage(pkg, meta) }),
      (e: unknown) => setLookup({ state: 'error', message: e instanceof Error ? e.message : String(e) }),
    );
  };
  return (
    <section aria-labelledby="claim">
      <h2 id="claim">Claim lookup</h2>
      {epoch === null ? (
        <p class="muted">No epoch to claim from yet.</p>
      ) : (
        <>
          <p>
            A hotkey's claim package for epoch {epoch}, its Merkle proof checked in this browser against the epoch's root.
          </p>
          <form onSubmit={submit} class="inline">
            <label for="claim-hotkey">Hotkey (SS58)</label>
            <input id="claim-hotkey" name="hotkey" value={hotkey} onInput={(e) => setHotkey(e.currentTarget.value)} size={50} autoComplete="off" spellcheck={false} />
            <button type="submit">Look up and verify</button>
          </form>
        </>
      )}
      <div aria-live="polite">
        {lookup.state === 'busy' ? <p role="status">Looking up…</p> : null}
        {lookup.state === 'error' ? <p role="alert" class="error">{lookup.message}</p> : null}
        {lookup.state === 'done' ? (
          <>
            <p class={lookup.check.ok ? 'verified' : 'error'} data-testid="claim-verdict" data-epoch={lookup.pkg.epoch}>
              {lookup.check.ok ? '✓ ' : '✗ '}
              {lookup.check.message}
            </p>
            <dl class="facts">
              <dt>Epoch</dt>
              <dd>{lookup.pkg.epoch} ({lookup.epoch.status})</dd>
              <dt>Leaf index</dt>
              <dd>{lookup.pkg.index} of {lookup.pkg.leaf_count}</dd>
              <dt>Hotkey</dt>
              <dd>
                <Hotkey value={lookup.pkg.hotkey} />
              </dd>
              <dt>Recipient</dt>
              <dd>
                <Hotkey value={lookup.pkg.recipient_coldkey} />
              </dd>
              <dt>Cumulative amount</dt>
              <dd>{formatRao(lookup.pkg.amount)}</dd>
              <dt>Proof</dt>
              <dd>{lookup.pkg.proof.length} hashes</dd>
            </dl>
          </>
        ) : null}
      </div>
    </section>
  );
}
