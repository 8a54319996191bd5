import type { DisclaimerDto } from '@rcs/contracts';
import type { Services } from '../app';
import { Hotkey, Time, useLoad } from '../components/common';
import { LoadedSection } from '../components/layout';
import { Markdown } from '../components/markdown';

/** Readiness of each service (coordinator, pool, validator runner, weight setter), the chain and claim contract, and the participation disclaimer in full. */
export function StatusPage({ services }: { services: Services }) {
  const { coordinator, pool, weightSetter, runner } = services;
  const [ready] = useLoad(() => coordinator.readiness(), [coordinator]);
  const [runnerHealth] = useLoad(() => (runner ? runner.health() : Promise.resolve(null)), [runner]);
  const [weights] = useLoad(() => (weightSetter ? Promise.all([weightSetter.readiness(), weightSetter.status()]) : Promise.resolve(null)), [weightSetter]);
  const [onchain] = useLoad(() => coordinator.onchain(), [coordinator]);
  const [poolStatus] = useLoad(() => pool.status(), [pool]);
  const [disclaimer] = useLoad(() => coordinator.disclaimer(), [coordinator]);
  return (
    <>
      <h1>Status</h1>
      <LoadedSection id="coordinator" title="Coordinator" load={ready} label="the coordinator's readiness">
        {(r) => (
          <>
            <p>
              <span class={r.status === 'ready' ? 'ok' : 'bad'}>{r.status === 'ready' ? 'ready' : 'not ready'}</span> at <code>{coordinator.baseUrl}</code>
              {r.stake_check ? `; miner stake check ${r.stake_check}` : ''}
            </p>
            <ul>
              {Object.entries(r.checks).map(([name, check]) => (
                <li key={name}>
                  {name}: <span class={check.ok ? 'ok' : 'bad'}>{check.ok ? 'ok' : `failing (${check.error ?? 'no answer'})`}</span>
                  {check.latest_block !== undefined ? `, block ${check.latest_block}` : ''}
                </li>
              ))}
            </ul>
          </>
        )}
      </LoadedSection>
      <LoadedSection id="pool-status" title="Pool" load={poolStatus} label="the pool's status">
        {(s) => (
          <ul>
            <li>
              <span class={s.status === 'healthy' ? 'ok' : 'bad'}>{s.status}</span> at <code>{pool.baseUrl}</code>
            </li>
            <li>
              block {s.current_block ?? '—'}, window {s.window_number ?? '—'} ({s.window_blocks} blocks each), latest published epoch {s.latest_epoch ?? 'none'}
            </li>
            <li>
              the pool's on-chain claim runtime{' '}
              {s.onchain_runtime.enabled ? (s.onchain_runtime.contract_status.claim_ready ? 'is ready for claims' : 'is not ready for claims') : 'is off (the pool publishes no epoch to a chain contract)'}
            </li>
            <li>publication {s.payout.publication.enabled ? 'enabled' : 'disabled'}{s.payout.publication.last_error ? `, last error: ${s.payout.publication.last_error}` : ''}</li>
          </ul>
        )}
      </LoadedSection>
      <LoadedSection id="runner-status" title="Validator runner" load={runnerHealth} label="the validator runner's health">
        {(h) =>
          h === null || runner === null ? (
            <p class="muted">Not configured: config.json names no <code>validator_runner</code>.</p>
          ) : (
            <p>
              <span class={h.status === 'ok' ? 'ok' : 'bad'}>{h.status === 'ok' ? 'up' : h.status}</span> at <code>{runner.baseUrl}</code> ({h.service} {h.version})
            </p>
          )
        }
      </LoadedSection>
      <LoadedSection id="weights-status" title="Weight setter" load={weights} label="the weight setter's status">
        {(w) =>
          w === null || weightSetter === null ? (
            <p class="muted">Not configured: config.json names no <code>weight_setter</code>.</p>
          ) : (
            <ul>
              <li>
                <span class={w[0].status === 'ready' ? 'ok' : 'bad'}>{w[0].status === 'ready' ? 'ready' : 'not ready'}</span> at <code>{weightSetter.baseUrl}</code>
                {w[0].role ? `, ${w[0].role}` : ''}
                {w[0].dry_run ? ', dry run' : ''}
                {w[0].commit_reveal ? `, commit-reveal ${w[0].commit_reveal}` : ''}
              </li>
              <li>
                validator hotkey <Hotkey value={w[1].hotkey} link={false} />
              </li>
              <li>
                {w[1].last_pass ? (
                  <>
                    last pass <Time value={w[1].last_pass.at} />: {w[1].last_pass.outcome}
                    {w[1].last_pass.reason ? ` (${w[1].last_pass.reason})` : ''}, {w[1].last_pass.weights.length} weights
                  </>
                ) : (
                  'no pass yet'
                )}
              </li>
            </ul>
          )
        }
      </LoadedSection>
      <LoadedSection id="onchain" title="On chain" load={onchain} label="the on-chain status">
        {(o) => (
          <ul>
            <li>chain {o.chain_reachable === null ? 'not probed' : o.chain_reachable ? 'reachable' : 'unreachable'}{o.latest_block !== null ? `, latest block ${o.latest_block}` : ''}</li>
            <li>
              claim contract the coordinator checks: {o.configured ? <code>{o.contract}</code> : 'none configured'}
              {o.configured ? `, required messages ${o.required_messages_present ? 'present' : 'missing'}` : ''}
            </li>
            {o.error ? <li class="bad">{o.error}</li> : null}
          </ul>
        )}
      </LoadedSection>
      <LoadedSection id="disclaimer" title="Participation disclaimer" load={disclaimer} label="the disclaimer">
        {(d) => <DisclaimerText disclaimer={d} />}
      </LoadedSection>
    </>
  );
}

/** The disclaimer's full text, without repeating its title when the document opens with it. */
export function DisclaimerText({ disclaimer }: { disclaimer: DisclaimerDto }) {
  const text = disclaimer.full_text.replace(/^\s*#{1,6}\s+(.*)\n/, (line, heading: string) => (heading.trim() === disclaimer.title ? '' : line));
  return (
    <div class="disclaimer-full">
      <p>
        <strong>{disclaimer.title}</strong> <span class="muted">(version {disclaimer.version})</span>
      </p>
      <Markdown text={text} headingOffset={2} />
    </div>
  );
}
