import type { DashboardDto } from '@rcs/contracts';
import type { Coordinator } from '../api/services';
import { Empty, Hotkey, LiveBadge, Loaded, Time, useEvents, useLoad } from '../components/common';
import { Table, type Column } from '../components/layout';
import { formatMetric, plural } from '../logic/format';
import { COORDINATOR_EVENTS } from '../logic/live';
import { href } from '../logic/route';

export function NoCompetitions({ coordinator }: { coordinator: Coordinator }) {
  return (
    <Empty>
      <p>
        <strong>No competitions yet.</strong> An operator creates one with <code>POST /api/v1/tasks</code> and an admin token (header{' '}
        <code>X-Admin-Token</code>): see the coordinator's API docs at <a href={`${coordinator.baseUrl}/docs`}>{coordinator.baseUrl}/docs</a>. On a local
        stack, <code>npm run demo</code> creates one and runs a whole round.
      </p>
    </Empty>
  );
}

/** Every competition with its state, mode, metric, best result, submissions per status and active claims; live. */
export function CompetitionsPage({ coordinator }: { coordinator: Coordinator }) {
  const [load, reload] = useLoad(() => coordinator.dashboard(), [coordinator]);
  const live = useEvents(coordinator.eventsUrl(), COORDINATOR_EVENTS, () => reload());
  return (
    <>
      <h1>Competitions</h1>
      <LiveBadge state={live} />
      <Loaded load={load} label="the competitions">
        {(dashboard) => <CompetitionsTable dashboard={dashboard} coordinator={coordinator} />}
      </Loaded>
    </>
  );
}

type TaskRow = DashboardDto['tasks'][number];

const COLUMNS: Column<TaskRow>[] = [
  {
    title: 'Competition',
    rowHeader: true,
    cell: (task) => (
      <>
        <a href={href({ page: 'competition', id: task.id })}>{task.title}</a>
        <div class="muted">{task.slug}</div>
      </>
    ),
  },
  { title: 'State', cell: (task) => <span class={`state state-${task.task_state}`}>{task.task_state}</span> },
  { title: 'Mode', cell: (task) => task.competition_mode },
  {
    title: 'Metric',
    cell: (task) => (
      <>
        {task.metric_name} <span class="muted">({task.metric_direction})</span>
      </>
    ),
  },
  {
    title: 'Best result',
    cell: (task) =>
      task.best ? (
        <>
          <strong class="best-value">{formatMetric(task.best.metric_value)}</strong> <Hotkey value={task.best.miner_hotkey} /> <Time value={task.best.updated_at} />
        </>
      ) : (
        <span class="muted">none yet</span>
      ),
  },
  { title: 'Pending', cell: (task) => task.submissions.pending_verification },
  { title: 'Accepted', cell: (task) => task.submissions.accepted },
  { title: 'Rejected', cell: (task) => task.submissions.rejected },
  { title: 'Error', cell: (task) => task.submissions.error },
  { title: 'Active claims', cell: (task) => task.active_claims },
];

function CompetitionsTable({ dashboard, coordinator }: { dashboard: DashboardDto; coordinator: Coordinator }) {
  if (dashboard.tasks.length === 0) return <NoCompetitions coordinator={coordinator} />;
  const counts = dashboard.task_counts;
  return (
    <>
      <p>
        {plural(counts.total, 'competition')}: {counts.live} live, {counts.paused} paused, {counts.closed} closed
        {dashboard.tasks_truncated ? ` (the newest ${dashboard.tasks.length} are listed)` : ''}. As of <Time value={dashboard.generated_at} />.
      </p>
      <Table columns={COLUMNS} rows={dashboard.tasks} rowKey={(task) => task.id} rowProps={(task) => ({ 'data-task-id': task.id })} caption="Competitions, newest first" />
    </>
  );
}
