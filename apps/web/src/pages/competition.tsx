import type { BestResultChangeDto, BestResultDto, CompetitionMode, DashboardDecisionDto, IdeaRewardDto, PeerConsensusDto, TaskDto } from '@rcs/contracts';
import type { Coordinator } from '../api/services';
import { Empty, Hotkey, LiveBadge, Loaded, Rank, Reason, Time, useEvents, useLoad, type LiveState } from '../components/common';
import { HistoryChart } from '../components/history-chart';
import { Section, Table, type Column } from '../components/layout';
import { formatMetric } from '../logic/format';
import { concernsTask, COORDINATOR_EVENTS } from '../logic/live';
import { places, rankAccepted, withMiners, type AcceptedResult, type Place } from '../logic/ranking';
import { bandReplacement, ruleText, taskRule, type TaskRule } from '../logic/task-rule';
import { exposureText } from '../logic/exposure';
import { Markdown } from '../components/markdown';
import { href } from '../logic/route';

interface CompetitionData {
  task: TaskDto;
  best: BestResultDto | null;
  history: BestResultChangeDto[];
  accepted: AcceptedResult[];
  decisions: DashboardDecisionDto[];
  ideaRewards: IdeaRewardDto[] | null;
  consensus: PeerConsensusDto[] | null;
  /** The validator's notes on rejected and errored submissions of this task, by submission. */
  reasons: Map<string, string | null>;
  /** The onboarding document, or why it could not be read. */
  onboard: { text: string } | { error: string };
}

const TASK_EVENTS = COORDINATOR_EVENTS.filter((name) => name !== 'snapshot_rebuilt');

/**
 * What the page reads beside the task in each competition mode: idea rewards where the idea rules apply,
 * the peer consensus where peers decide (the coordinator's COMPETITION_MODES). Exhaustive: a new mode does not compile without its entry.
 */
const MODE_READS: Record<`${CompetitionMode}`, { ideaRewards: boolean; consensus: boolean }> = {
  standard: { ideaRewards: false, consensus: false },
  centerless: { ideaRewards: true, consensus: false },
  peer_evaluation: { ideaRewards: false, consensus: true },
};

async function readCompetition(coordinator: Coordinator, id: string): Promise<CompetitionData> {
  const task = await coordinator.task(id);
  const reads = MODE_READS[task.competition_mode];
  const [history, verifications, dashboard, ideaRewards, rejected, errored, onboard] = await Promise.all([
    coordinator.history(id),
    coordinator.verifications('status=accepted&limit=1000'),
    coordinator.dashboard(),
    reads.ideaRewards ? coordinator.ideaRewards(id) : Promise.resolve(null),
    coordinator.verifications('status=rejected&limit=200'),
    coordinator.verifications('status=error&limit=200'),
    coordinator.onboard(id).then(
      (text) => ({ text }),
      (error: unknown) => ({ error: error instanceof Error ? error.message : String(error) }),
    ),
  ]);
  // Newest first: the first note seen for a submission is its latest verdict's.
  const reasons = new Map<string, string | null>();
  for (const v of [...rejected, ...errored].sort((a, b) => (a.created_at < b.created_at ? 1 : -1))) {
    if (v.task_id === id && !reasons.has(v.submission_id)) reasons.set(v.submission_id, v.notes);
  }
  // Without a history there is no best: not asking spares a 404 in the browser console.
  const best = history.length === 0 ? null : await coordinator.best(id);
  const decisions = dashboard.recent_decisions.filter((d) => d.task_id === id);
  const minerOf = new Map(history.map((change) => [change.submission_id, change.miner_hotkey]));
  const accepted = withMiners(rankAccepted(id, taskRule(task), verifications, decisions), minerOf);
  let consensus: PeerConsensusDto[] | null = null;
  if (reads.consensus) {
    // No public route lists a task's submissions: the consensus is read for those the page knows of.
    const ids = [...new Set([...decisions.map((d) => d.submission_id), ...history.map((c) => c.submission_id)])];
    consensus = await Promise.all(ids.map((submission) => coordinator.peerConsensus(submission)));
  }
  return { task, best, history, accepted, decisions, ideaRewards, consensus, reasons, onboard };
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

function historyColumns(rule: TaskRule, history: readonly BestResultChangeDto[]): Column<BestResultChangeDto>[] {
  return [
    { title: 'When', cell: (change) => <Time value={change.changed_at} /> },
    { title: rule.metric, cell: (change) => formatMetric(change.metric_value) },
    ...(rule.secondary ? [{ title: rule.secondary.name, cell: (change: BestResultChangeDto) => formatMetric(change.secondary_metric_value) }] : []),
    { title: 'Previous', cell: (change) => formatMetric(change.previous_metric_value) },
    {
      title: 'Why',
      cell: (change) => {
        const band = bandReplacement(rule, change, history);
        return band ? <span class="band-replacement">{band}</span> : change.previous_metric_value === null ? 'first result' : `better ${rule.metric}`;
      },
    },
    { title: 'Miner', cell: (change) => <Hotkey value={change.miner_hotkey} /> },
  ];
}

function acceptedColumns(rule: TaskRule, ranks: Place[]): Column<AcceptedResult>[] {
  return [
    { title: 'Rank', cell: (_row, i) => <Rank place={ranks[i]} /> },
    { title: `Verified ${rule.metric}`, cell: (row) => formatMetric(row.metric_value) },
    ...(rule.secondary ? [{ title: `Verified ${rule.secondary.name}`, cell: (row: AcceptedResult) => formatMetric(row.secondary_value) }] : []),
    { title: 'Miner', cell: (row) => <Hotkey value={row.miner_hotkey} /> },
    { title: 'Submission', cell: (row) => <code>{row.submission_id}</code> },
    { title: 'Decided', cell: (row) => <Time value={row.decided_at} /> },
  ];
}

const IDEA_REWARD_COLUMNS: Column<IdeaRewardDto>[] = [
  { title: 'Proposer', cell: (r) => <Hotkey value={r.proposer_hotkey} /> },
  { title: 'Implementer', cell: (r) => <Hotkey value={r.implementer_hotkey} /> },
  { title: 'Improvement', cell: (r) => `${formatMetric(r.previous_metric_value)} → ${formatMetric(r.improved_metric_value)}` },
  { title: 'When', cell: (r) => <Time value={r.created_at} /> },
];

function consensusColumns(metric: string): Column<PeerConsensusDto>[] {
  return [
    { title: 'Submission', cell: (c) => <code>{c.submission_id}</code> },
    { title: 'Status', cell: (c) => c.status },
    { title: 'Accept / reject / error (threshold)', cell: (c) => `${c.accepted_count} / ${c.rejected_count} / ${c.error_count} (${c.threshold})` },
    { title: `Consensus ${metric}`, cell: (c) => formatMetric(c.consensus_metric_value) },
  ];
}

function Competition({ data, coordinator, live }: { data: CompetitionData; coordinator: Coordinator; live: LiveState }) {
  const { task, best, history } = data;
  const rule = taskRule(task);
  const exposure = exposureText(task);
  const bestSecondary = best ? ([...history].reverse().find((change) => change.submission_id === best.submission_id)?.secondary_metric_value ?? null) : null;
  const inBand = history.some((change) => bandReplacement(rule, change, history) !== null);
  return (
    <>
      <h1>{task.title}</h1>
      <LiveBadge state={live} />
      <Section id="onboarding" title="Onboarding">
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
          {rule.secondary ? (
            <>
              <dt>Best-result rule</dt>
              <dd data-testid="task-rule">{ruleText(rule)}</dd>
            </>
          ) : null}
          <dt>Repository</dt>
          <dd>
            <code>{task.repository}</code> at <code>{task.base_ref}</code>
          </dd>
          <dt>Editable paths</dt>
          <dd>{task.allowed_patch_paths.map((path) => <code key={path} class="path">{path}</code>)}</dd>
          <dt>Time budget</dt>
          <dd>{task.time_budget_seconds} s per replay</dd>
          {exposure === null ? null : (
            <>
              <dt>Held-out exposure</dt>
              <dd data-testid="exposure">{exposure}</dd>
            </>
          )}
        </dl>
        {task.brief ? <p class="brief">{task.brief}</p> : null}
        <p>
          Miners start from the onboarding document, shown below (the source: <a href={coordinator.onboardUrl(task.id)}>onboard.md</a>).
        </p>
        {'text' in data.onboard ? (
          <div class="onboarding-doc" data-testid="onboarding-doc">
            <Markdown text={data.onboard.text} headingOffset={2} />
          </div>
        ) : (
          <p role="alert" class="error">Could not read the onboarding document: {data.onboard.error}</p>
        )}
      </Section>

      <Section id="best" title="Best result">
        {best ? (
          <p>
            <strong class="best-value">
              {task.metric_name} {formatMetric(best.metric_value)}
              {best.metric_unit ? ` ${best.metric_unit}` : ''}
              {rule.secondary ? `, ${rule.secondary.name} ${formatMetric(bestSecondary)}` : ''}
            </strong>{' '}
            by <Hotkey value={best.miner_hotkey} />, <Time value={best.updated_at} /> (submission <code>{best.submission_id}</code>)
          </p>
        ) : (
          <Empty>
            <p>No accepted result yet: the first submission a validator accepts becomes the best.</p>
          </Empty>
        )}
      </Section>

      <Section id="history" title="Best result over time">
        {history.length === 0 ? (
          <p class="muted">The chart starts with the first accepted result.</p>
        ) : (
          <>
            <HistoryChart changes={history} metric={task.metric_name} />
            {inBand ? (
              <p class="muted" data-testid="band-note">
                A step the wrong way for {task.metric_direction === 'maximize' ? 'a maximised' : 'a minimised'} {task.metric_name} is a best that replaced another inside the band: by the task's rule ({ruleText(rule)}) it
                won on {rule.secondary?.name}. The table says which.
              </p>
            ) : null}
            <Table
              columns={historyColumns(rule, history)}
              rows={history}
              rowKey={(change) => `${change.submission_id}-${change.changed_at}`}
              rowProps={() => ({ class: 'history-point' })}
              caption="Every change of the best result, oldest first"
            />
          </>
        )}
      </Section>

      <Section id="accepted" title={rule.secondary ? `Accepted results, ranked by the task's rule: ${ruleText(rule)}` : `Accepted results, ranked by verified ${task.metric_name}`}>
        <Table
          columns={acceptedColumns(rule, places(data.accepted, (row) => `${row.metric_value}/${row.secondary_value ?? ''}`))}
          rows={data.accepted}
          rowKey={(row) => row.submission_id}
          rowProps={(row) => ({ class: 'accepted-result', 'data-submission-id': row.submission_id })}
          empty="No accepted results yet."
        />
      </Section>

      <Section id="decisions" title="Recent decisions">
        {data.decisions.length === 0 ? (
          <p class="muted">No decision among the latest ones concerns this competition.</p>
        ) : (
          <ul class="decisions">
            {data.decisions.map((d) => (
              <li key={`${d.submission_id}-${d.decided_at}`} data-submission-id={d.submission_id}>
                <span class={`verdict verdict-${d.status}`}>{d.status}</span> {d.metric_name} {formatMetric(d.verified_metric_value)} from{' '}
                <Hotkey value={d.miner_hotkey} /> <Time value={d.decided_at} /> <code class="muted">{d.submission_id}</code>
                {String(d.status) === 'error' || String(d.status) === 'rejected' ? (
                  <>
                    {' '}— <Reason status={String(d.status)} notes={data.reasons.get(d.submission_id) ?? null} />
                  </>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </Section>

      {data.ideaRewards ? (
        <Section id="ideas" title="Idea rewards">
          <Table
            columns={IDEA_REWARD_COLUMNS}
            rows={data.ideaRewards}
            rowKey={(r) => r.id}
            empty="None yet: a reward is recorded when an implementation of another miner's idea becomes the best."
          />
        </Section>
      ) : null}

      {data.consensus ? (
        <Section id="consensus" title="Peer consensus">
          <Table
            columns={consensusColumns(task.metric_name)}
            rows={data.consensus}
            rowKey={(c) => c.submission_id}
            empty="No decided submissions yet; peers evaluate with POST /api/v1/submissions/{id}/peer-evaluate."
          />
        </Section>
      ) : null}
    </>
  );
}
