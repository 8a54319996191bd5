import type { DisclaimerDto } from '@rcs/contracts';
import type { Coordinator, Pool } from '../api/services';
import { useLoad } from '../components/common';
import { LoadedSection } from '../components/layout';
import { inlineRuns, markdownBlocks } from '../logic/markdown';

/** Readiness of each service, the chain and claim contract, and the participation disclaimer in full. */
export function StatusPage({ coordinator, pool }: { coordinator: Coordinator; pool: Pool }) {
  const [ready] = useLoad(() => coordinator.readiness(), [coordinator]);
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
              claim contract {s.onchain_runtime.enabled ? (s.onchain_runtime.contract_status.claim_ready ? 'ready for claims' : 'not ready for claims') : 'not configured'}
            </li>
            <li>publication {s.payout.publication.enabled ? 'enabled' : 'disabled'}{s.payout.publication.last_error ? `, last error: ${s.payout.publication.last_error}` : ''}</li>
          </ul>
        )}
      </LoadedSection>
      <LoadedSection id="onchain" title="On chain" load={onchain} label="the on-chain status">
        {(o) => (
          <ul>
            <li>chain {o.chain_reachable === null ? 'not probed' : o.chain_reachable ? 'reachable' : 'unreachable'}{o.latest_block !== null ? `, latest block ${o.latest_block}` : ''}</li>
            <li>claim contract {o.configured ? <code>{o.contract}</code> : 'not configured'}{o.configured ? `, messages ${o.required_messages_present ? 'present' : 'missing'}` : ''}</li>
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

export function DisclaimerText({ disclaimer }: { disclaimer: DisclaimerDto }) {
  return (
    <div class="disclaimer-full">
      <p>
        <strong>{disclaimer.title}</strong> <span class="muted">(version {disclaimer.version})</span>
      </p>
      <div class="md">
        {markdownBlocks(disclaimer.full_text).map((block, i) => {
          switch (block.kind) {
            case 'heading':
              return <h3 key={i}>{block.text}</h3>;
            case 'list':
              return (
                <ul key={i}>
                  {block.items.map((item, j) => (
                    <li key={j}>
                      <Inline text={item} />
                    </li>
                  ))}
                </ul>
              );
            case 'paragraph':
              return (
                <p key={i}>
                  <Inline text={block.text} />
                </p>
              );
          }
        })}
      </div>
    </div>
  );
}

function Inline({ text }: { text: string }) {
  return <>{inlineRuns(text).map((run, i) => (run.bold ? <strong key={i}>{run.text}</strong> : run.text))}</>;
}
