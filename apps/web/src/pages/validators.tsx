import type { VerificationSummaryDto } from '@rcs/contracts';
import type { Coordinator } from '../api/services';
import { Hotkey, LiveBadge, Loaded, Reason, Time, useEvents, useLoad } from '../components/common';
import { Section, Table, type Column } from '../components/layout';
import { formatDuration, formatMetric } from '../logic/format';

const VERIFICATION_COLUMNS: Column<VerificationSummaryDto>[] = [
  { title: 'When', cell: (v) => <Time value={v.created_at} /> },
  { title: 'Validator', cell: (v) => <Hotkey value={v.validator_hotkey} link={false} /> },
  { title: 'Verdict', cell: (v) => <span class={`verdict verdict-${v.status}`}>{v.status}</span> },
  {
    title: 'Observed metric',
    cell: (v) => (
      <>
        {v.metric_name} {formatMetric(v.metric_value)}
      </>
    ),
  },
  { title: 'Submission', cell: (v) => <code>{v.submission_id}</code> },
  { title: 'Reason', cell: (v) => <Reason status={String(v.status)} notes={v.notes} /> },
];

/** The validator job backlog and the latest verifications. */
export function ValidatorsPage({ coordinator }: { coordinator: Coordinator }) {
  const [load, reload] = useLoad(
    () => Promise.all([coordinator.dashboard(), coordinator.verifications('limit=25')]).then(([dashboard, verifications]) => ({ dashboard, verifications })),
    [coordinator],
  );
  const live = useEvents(coordinator.eventsUrl(), ['decision'], () => reload());
  return (
    <>
      <h1>Validators</h1>
      <LiveBadge state={live} />
      <Loaded load={load} label="the validator backlog">
        {({ dashboard, verifications }) => {
          const backlog = dashboard.validator_backlog;
          return (
            <>
              <Section id="backlog" title="Backlog">
                <dl class="facts">
                  <dt>Pending jobs</dt>
                  <dd>{backlog.pending_jobs}</dd>
                  <dt>Leased jobs</dt>
                  <dd>{backlog.leased_jobs}</dd>
                  <dt>Oldest pending</dt>
                  <dd>{backlog.oldest_pending_age_seconds === null ? 'none pending' : `${formatDuration(backlog.oldest_pending_age_seconds)} old`}</dd>
                  <dt>Expired leases</dt>
                  <dd>{backlog.expired_leases}</dd>
                </dl>
                <p class="muted">
                  As of <Time value={dashboard.generated_at} />. Validators on the coordinator's allowlist lease jobs with{' '}
                  <code>POST /api/v1/validator/submissions/scan</code>.
                </p>
              </Section>
              <Section id="verifications" title="Recent verifications">
                <Table
                  columns={VERIFICATION_COLUMNS}
                  rows={verifications}
                  rowKey={(v) => v.id}
                  empty="No verification yet: they appear once a validator replays a submission."
                />
              </Section>
            </>
          );
        }}
      </Loaded>
    </>
  );
}
