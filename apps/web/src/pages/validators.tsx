import type { Coordinator } from '../api/services';
import { Hotkey, LiveBadge, Loaded, Time, useEvents, useLoad } from '../components/common';
import { formatDuration, formatMetric } from '../logic/format';

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
              <section aria-labelledby="backlog">
                <h2 id="backlog">Backlog</h2>
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
              </section>
              <section aria-labelledby="verifications">
                <h2 id="verifications">Recent verifications</h2>
                {verifications.length === 0 ? (
                  <p class="muted">No verification yet: they appear once a validator replays a submission.</p>
                ) : (
                  <table>
                    <thead>
                      <tr>
                        <th scope="col">When</th>
                        <th scope="col">Validator</th>
                        <th scope="col">Verdict</th>
                        <th scope="col">Observed metric</th>
                        <th scope="col">Submission</th>
                      </tr>
                    </thead>
                    <tbody>
                      {verifications.map((v) => (
                        <tr key={v.id}>
                          <td>
                            <Time value={v.created_at} />
                          </td>
                          <td>
                            <Hotkey value={v.validator_hotkey} />
                          </td>
                          <td>
                            <span class={`verdict verdict-${v.status}`}>{v.status}</span>
                          </td>
                          <td>
                            {v.metric_name} {formatMetric(v.metric_value)}
                          </td>
                          <td>
                            <code>{v.submission_id}</code>
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                )}
              </section>
            </>
          );
        }}
      </Loaded>
    </>
  );
}
