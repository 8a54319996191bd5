import { Alpha, Hotkey } from '../components/common';
import type { Payout } from '../logic/payout';

/** How a miner stores a recipient: the pool's signed route (DECISIONS §2 Pool). */
export function HowToSetRecipient() {
  return (
    <p class="muted">
      To set one, sign <code>recipient_coldkey:update:&lt;unix seconds&gt;:&lt;coldkey SS58&gt;</code> with the hotkey and send it to the pool:{' '}
      <code>PUT /api/v1/miners/recipient-coldkey</code> with <code>{'{"recipient_coldkey": "<coldkey>"}'}</code> and the <code>X-Key</code>, <code>X-Timestamp</code>,{' '}
      <code>X-Signature</code> headers. The next epoch's leaf carries everything earned so far.
    </p>
  );
}

/** A hotkey's payout as facts: the case, the recipient, the cumulative, claimed and claimable amounts. */
export function PayoutFacts({ payout }: { payout: Payout }) {
  switch (payout.kind) {
    case 'no_epoch':
      return <p class="muted" data-payout="no_epoch">No payout epoch yet: the pool stores one per window once the reward snapshot has scores.</p>;
    case 'unknown_hotkey':
      return (
        <p class="error" data-payout="unknown_hotkey">
          Unknown hotkey: the pool has never seen it, and epoch {payout.epoch} allocates nothing to it. Check the address, or mine first.
        </p>
      );
    case 'nothing_earned':
      return (
        <>
          <p data-payout="nothing_earned">Nothing earned yet: epoch {payout.epoch} allocates nothing to this hotkey. Earnings come with a score in the reward snapshot.</p>
          <Recipient payout={payout} />
        </>
      );
    case 'no_recipient':
      return (
        <>
          <p class="error" data-payout="no_recipient">
            Earned <Alpha rao={payout.cumulative} /> up to epoch {payout.epoch}, but no recipient coldkey was stored, so no leaf pays it yet.
          </p>
          <Recipient payout={payout} />
          <HowToSetRecipient />
        </>
      );
    case 'leaf':
      return (
        <dl class="facts" data-payout="leaf">
          <dt>Recipient</dt>
          <dd>
            <Hotkey value={payout.pkg.recipient_coldkey} link={false} /> (in the leaf of epoch {payout.epoch.epoch}, {payout.epoch.status})
            {payout.recipient?.recipient_coldkey && payout.recipient.recipient_coldkey !== payout.pkg.recipient_coldkey ? (
              <>
                ; the next epoch pays <Hotkey value={payout.recipient.recipient_coldkey} link={false} />
              </>
            ) : null}
          </dd>
          <dt>Cumulative earned</dt>
          <dd data-testid="cumulative">
            <Alpha rao={payout.pkg.amount} />
          </dd>
          <dt>Already claimed</dt>
          <dd data-testid="claimed">{payout.claimed === null ? <span class="muted">not known now (the claim contract cannot be read)</span> : <Alpha rao={payout.claimed} />}</dd>
          <dt>Claimable now</dt>
          <dd data-testid="claimable">
            {payout.claimable === null ? <span class="muted">leaf amount less what the contract says was claimed</span> : <Alpha rao={payout.claimable} />}
            {payout.epoch.status === 'published' ? '' : ` (epoch ${payout.epoch.epoch} is ${payout.epoch.status}, not claimable)`}
          </dd>
          <dt>Proof</dt>
          <dd class={payout.check.ok ? 'verified' : 'error'}>
            {payout.check.ok ? '✓ ' : '✗ '}
            {payout.check.message}
          </dd>
        </dl>
      );
  }
}

function Recipient({ payout }: { payout: Extract<Payout, { recipient: unknown }> }) {
  const r = payout.recipient;
  if (!r) return <p class="muted">No recipient stored or declared.</p>;
  return (
    <p>
      Recipient: {r.recipient_coldkey ? <Hotkey value={r.recipient_coldkey} link={false} /> : 'none stored'}
      {r.recipient_coldkey ? (r.published_in_epoch !== null ? ` (published in epoch ${r.published_in_epoch})` : ' (stored, not yet in a published epoch)') : ''}
      {r.declared_coldkey ? (
        <>
          ; declared <Hotkey value={r.declared_coldkey} link={false} />
        </>
      ) : null}
      .
    </p>
  );
}
