import type { BestResultChangeDto, BestResultDto, DashboardDecisionDto, IdeaRewardDto, PeerConsensusDto, TaskDto } from '@rcs/contracts';
import type { Coordinator } from '../api/services';
import { Empty, Hotkey, LiveBadge, Loaded, Time, useEvents, useLoad, type LiveState } from '../components/common';
import { HistoryChart } from '../components/history-chart';
import { formatMetric } from '../logic/format';
import { concernsTask, COORDINATOR_EVENTS } from '../logic/live';
import { rankAccepted, withMiners, type AcceptedResult } from '../logic/ranking';
import { href } from '../logic/route';

interface CompetitionData {
  task: TaskDto;
  best: BestResultDto | null;
  history: BestResultChangeDto[];
  accepted: AcceptedResult[];
  decisions: DashboardDecisionDto[];
  ideaRewards: IdeaRewardDto[] | null;
  consensus: PeerConsensusDto[] | null;
}

const TASK_EVENTS = COORDINATOR_EVENTS.filter((name) => name !== 'snapshot_rebuilt');

async function readCompetition(coordinator: Coordinator, id: string): Promise<CompetitionData> {
  const task = await coordinator.task(id);
  const mode = String(task.competition_mode);
  const [history, verifications, dashboard, ideaRewards] = await Promise.all([
    coordinator.history(id),
    coordinator.verifications('status=accepted&limit=1000'),
    coordinator.dashboard(),
    mode === 'centerless' ? coordinator.ideaRewards(id) : Promise.resolve(null),
  ]);
  // Without a history there is no best: not asking spares a 404 in the browser console.
  const best = history.length === 0 ? null : await coordinator.best(id);
  const decisions = dashboard.recent_decisions.filter((d) => d.task_id === id);
  const minerOf = new Map(history.map((change) => [change.submission_id, change.miner_hotkey]));
  const accepted = withMiners(rankAccepted(id, String(task.metric_direction), verifications, decisions), minerOf);
  let consensus: PeerConsensusDto[] | null = null;
  if (mode === 'peer_evaluation') {
    // No public route lists a task's submissions: the consensus is read for those the page knows of.
    const ids = [...new Set([...decisions.map((d) => d.submission_id), ...history.map((c) => c.submission_id)])];
    consensus = await Promise.all(ids.map((submission) => coordinator.peerConsensus(submission)));
  }
  return { task, best, history, accepted, decisions, ideaRewards, consensus };
}

/** One competition: onboarding summary, best result and its history, ranked results, decisions, idea rewards, peer consensus. */
export function CompetitionPage({ coordinator, id }: { coordinator: Coordinator; id: string }) {
  const [load, reload] = useLoad(() => readCompetition(coordinator, id), [coordinator, id]);
  const live = useEvents(coordinator.eventsUrl(), TASK_EVENTS, (_name, data) => {
    if (concernsTask(data, id)) reload();
  });
  return (
    <>
      <p>
        <a href={href({ page: 'competitions' })}>← All competitions</a>
      </p>
      <Loaded load={load} label="the competition">
        {(data) => <Competition data={data} coordinator={coordinator} live={live} />}
      </Loaded>
    </>
  );
}

function Competition({ data, coordinator, live }: { data: CompetitionData; coordinator: Coordinator; live: LiveState }) {
  const { task, best, history } = data;
  return (
    <>
      <h1>{task.title}</h1>
      <LiveBadge state={live} />
      <section aria-labelledby="onboarding">
        <h2 id="onboarding">Onboarding</h2>
        <dl class="facts">
          <dt>Slug</dt>
          <dd>{task.slug}</dd>
          <dt>State</dt>
          <dd>
            <span class={`state state-${task.task_state}`}>{task.task_state}</span>
          </dd>
          <dt>Mode</dt>
          <dd>{task.competition_mode}</dd>
          <dt>Metric</dt>
          <dd>
            {task.metric_name} ({task.metric_direction}, ranking {task.ranking_mode})
          </dd>
          <dt>Repository</dt>
          <dd>
            <code>{task.repository}</code> at <code>{task.base_ref}</code>
          </dd>
          <dt>Editable paths</dt>
          <dd>{task.allowed_patch_paths.map((path) => <code key={path} class="path">{path}</code>)}</dd>
          <dt>Time budget</dt>
          <dd>{task.time_budget_seconds} s per replay</dd>
        </dl>
        {task.brief ? <p class="brief">{task.brief}</p> : null}
        <p>
          Miners start from the onboarding document: <a href={coordinator.onboardUrl(task.id)}>onboard.md</a>.
        </p>
      </section>

      <section aria-labelledby="best">
        <h2 id="best">Best result</h2>
        {best ? (
          <p>
            <strong class="best-value">
              {task.metric_name} {formatMetric(best.metric_value)}
              {best.metric_unit ? ` ${best.metric_unit}` : ''}
            </strong>{' '}
            by <Hotkey value={best.miner_hotkey} />, <Time value={best.updated_at} /> (submission <code>{best.submission_id}</code>)
          </p>
        ) : (
          <Empty>
            <p>No accepted result yet: the first submission a validator accepts becomes the best.</p>
          </Empty>
        )}
      </section>

      <section aria-labelledby="history">
        <h2 id="history">Best result over time</h2>
        {history.length === 0 ? (
          <p class="muted">The chart starts with the first accepted result.</p>
        ) : (
          <>
            <HistoryChart changes={history} metric={task.metric_name} />
            <table>
              <caption class="sr-only">Every change of the best result, oldest first</caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">{task.metric_name}</th>
                  <th scope="col">Previous</th>
                  <th scope="col">Miner</th>
                </tr>
              </thead>
              <tbody>
                {history.map((change) => (
                  <tr key={`${change.submission_id}-${change.changed_at}`} class="history-point">
                    <td>
                      <Time value={change.changed_at} />
                    </td>
                    <td>{formatMetric(change.metric_value)}</td>
                    <td>{formatMetric(change.previous_metric_value)}</td>
                    <td>
                      <Hotkey value={change.miner_hotkey} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </section>

      <section aria-labelledby="accepted">
        <h2 id="accepted">Accepted results, ranked by verified {task.metric_name}</h2>
        {data.accepted.length === 0 ? (
          <p class="muted">No accepted results yet.</p>
        ) : (
          <table>
            <thead>
              <tr>
                <th scope="col">Rank</th>
                <th scope="col">Verified {task.metric_name}</th>
                <th scope="col">Miner</th>
                <th scope="col">Submission</th>
                <th scope="col">Decided</th>
              </tr>
            </thead>
            <tbody>
              {data.accepted.map((row, i) => (
                <tr key={row.submission_id}>
                  <td>{i + 1}</td>
                  <td>{formatMetric(row.metric_value)}</td>
                  <td>
                    <Hotkey value={row.miner_hotkey} />
                  </td>
                  <td>
                    <code>{row.submission_id}</code>
                  </td>
                  <td>
                    <Time value={row.decided_at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>

      <section aria-labelledby="decisions">
        <h2 id="decisions">Recent decisions</h2>
        {data.decisions.length === 0 ? (
          <p class="muted">No decision among the latest ones concerns this competition.</p>
        ) : (
          <ul class="decisions">
            {data.decisions.map((d) => (
              <li key={`${d.submission_id}-${d.decided_at}`} data-submission-id={d.submission_id}>
                <span class={`verdict verdict-${d.status}`}>{d.status}</span> {d.metric_name} {formatMetric(d.verified_metric_value)} from{' '}
                <Hotkey value={d.miner_hotkey} /> <Time value={d.decided_at} /> <code class="muted">{d.submission_id}</code>
              </li>
            ))}
          </ul>
        )}
      </section>

      {data.ideaRewards ? (
        <section aria-labelledby="ideas">
          <h2 id="ideas">Idea rewards</h2>
          {data.ideaRewards.length === 0 ? (
            <p class="muted">None yet: a reward is recorded when an implementation of another miner's idea becomes the best.</p>
          ) : (
            <table>
              <thead>
                <tr>
                  <th scope="col">Proposer</th>
                  <th scope="col">Implementer</th>
                  <th scope="col">Improvement</th>
                  <th scope="col">When</th>
                </tr>
              </thead>
              <tbody>
                {data.ideaRewards.map((r) => (
                  <tr key={r.id}>
                    <td>
                      <Hotkey value={r.proposer_hotkey} />
                    </td>
                    <td>
                      <Hotkey value={r.implementer_hotkey} />
                    </td>
                    <td>
                      {formatMetric(r.previous_metric_value)} → {formatMetric(r.improved_metric_value)}
                    </td>
                    <td>
                      <Time value={r.created_at} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      ) : null}

      {data.consensus ? (
        <section aria-labelledby="consensus">
          <h2 id="consensus">Peer consensus</h2>
          {data.consensus.length === 0 ? (
            <p class="muted">No decided submissions yet; peers evaluate with POST /api/v1/submissions/&#123;id&#125;/peer-evaluate.</p>
          ) : (
            <table>
              <thead>
                <tr>
                  <th scope="col">Submission</th>
                  <th scope="col">Status</th>
                  <th scope="col">Accept / reject / error (threshold)</th>
                  <th scope="col">Consensus {task.metric_name}</th>
                </tr>
              </thead>
              <tbody>
                {data.consensus.map((c) => (
                  <tr key={c.submission_id}>
                    <td>
                      <code>{c.submission_id}</code>
                    </td>
                    <td>{c.status}</td>
                    <td>
                      {c.accepted_count} / {c.rejected_count} / {c.error_count} ({c.threshold})
                    </td>
                    <td>{formatMetric(c.consensus_metric_value)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </section>
      ) : null}
    </>
  );
}
