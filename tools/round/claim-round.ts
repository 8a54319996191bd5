/**
 * The payout's end of the demo (spec 001 rule 7), over HTTP only: the miner stores its recipient at
 * the pool, waits for an epoch with its leaf, verifies the package's proof locally, claims it
 * (simulated: the dev contract pays `amount − claimed`), sees a second claim refused with
 * `nothing_to_claim`, and claims a later epoch, which pays only the difference.
 */
import { BtAuthSigner } from '@rcs/auth';
import { verifyClaimPackage, type ClaimPackage } from '@rcs/merkle';

export interface ClaimRoundOptions {
  /** Pool base URL (claim routes at `/claims`, simulation on). */
  url: string;
  /** A miner with a positive score in the coordinator's snapshot. */
  miner: BtAuthSigner;
  recipient: string;
  /** How long to wait for each epoch. */
  timeoutMs: number;
  log?: (line: string) => void;
}

export interface ClaimRoundResult {
  first: { epoch: number; paid: bigint };
  later: { epoch: number; paid: bigint };
}

export class ClaimRoundError extends Error {
  constructor(step: string, detail: string) {
    super(`claim round, ${step}: ${detail}`);
    this.name = 'ClaimRoundError';
  }
}

type Json = Record<string, unknown>;

async function call(url: string, method: 'GET' | 'POST' | 'PUT', body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: Json }> {
  const text = body === undefined ? undefined : JSON.stringify(body);
  const response = await fetch(url, { method, body: text, headers: { ...(text === undefined ? {} : { 'content-type': 'application/json' }), ...headers } });
  const raw = await response.text();
  try {
    return { status: response.status, body: JSON.parse(raw) as Json };
  } catch {
    return { status: response.status, body: { raw } };
  }
}

const errorCode = (body: Json) => (body['detail'] as { error?: string } | undefined)?.error;

/** Polls the default epoch's package for the hotkey until it exists in an epoch after `after`. */
async function packageAfter(options: ClaimRoundOptions, after: number): Promise<ClaimPackage> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    const reply = await call(`${options.url}/claims/epoch/proof/${options.miner.hotkey}`, 'GET');
    if (reply.status === 200 && (reply.body as unknown as ClaimPackage).epoch > after) return reply.body as unknown as ClaimPackage;
    if (reply.status !== 200 && reply.status !== 404) throw new ClaimRoundError('package', `HTTP ${reply.status}: ${JSON.stringify(reply.body)}`);
    if (Date.now() > deadline) throw new ClaimRoundError('package', `no epoch after ${after} with a leaf for ${options.miner.hotkey} within ${options.timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** Fetches, verifies and claims the latest package (a package superseded meanwhile is fetched again). */
async function claimLatest(options: ClaimRoundOptions, after: number): Promise<{ pkg: ClaimPackage; paid: bigint }> {
  for (let attempt = 0; ; attempt += 1) {
    const pkg = await packageAfter(options, after);
    const epoch = await call(`${options.url}/claims/epoch/${pkg.epoch}`, 'GET');
    const verdict = verifyClaimPackage(pkg, { root: String(epoch.body['root']), leafCount: Number(epoch.body['leaf_count']) });
    if (!verdict.ok) throw new ClaimRoundError('verify', verdict.reason);
    options.log?.(`package: epoch ${pkg.epoch}, leaf ${pkg.index} of ${pkg.leaf_count}, amount ${pkg.amount} to ${pkg.recipient_coldkey}; proof verified locally (${pkg.proof.length} hashes to ${pkg.root})`);
    const claim = await call(`${options.url}/claims/epoch/${pkg.epoch}/claim`, 'POST', pkg);
    if (claim.status === 200) return { pkg, paid: BigInt(String(claim.body['paid'])) };
    if (claim.status === 409 && errorCode(claim.body) === 'epoch_not_claimable' && attempt < 3) continue;
    throw new ClaimRoundError('claim', `HTTP ${claim.status}: ${JSON.stringify(claim.body)}`);
  }
}

export async function runClaimRound(options: ClaimRoundOptions): Promise<ClaimRoundResult> {
  const log = options.log ?? (() => undefined);
  const ts = Math.floor(Date.now() / 1000);
  const set = await call(`${options.url}/api/v1/miners/recipient-coldkey`, 'PUT', { recipient_coldkey: options.recipient }, { ...options.miner.signRecipientUpdate(ts, options.recipient) });
  if (set.status !== 200) throw new ClaimRoundError('recipient', `HTTP ${set.status}: ${JSON.stringify(set.body)}`);
  log(`recipient: ${options.miner.hotkey} → ${options.recipient}; waiting for an epoch with its leaf`);

  const first = await claimLatest(options, -1);
  if (first.paid !== BigInt(first.pkg.amount)) throw new ClaimRoundError('claim', `the first claim paid ${first.paid}, not the leaf's ${first.pkg.amount}`);
  log(`claimed: epoch ${first.pkg.epoch} paid ${first.paid}`);
  const again = await call(`${options.url}/claims/epoch/${first.pkg.epoch}/claim`, 'POST', first.pkg);
  if (again.status !== 409 || errorCode(again.body) !== 'nothing_to_claim') throw new ClaimRoundError('second claim', `expected 409 nothing_to_claim, got ${again.status}: ${JSON.stringify(again.body)}`);
  log('second claim: 409 nothing_to_claim');

  const later = await claimLatest(options, first.pkg.epoch);
  const difference = BigInt(later.pkg.amount) - BigInt(first.pkg.amount);
  if (later.paid !== difference) throw new ClaimRoundError('later claim', `paid ${later.paid}, expected the difference ${difference}`);
  log(`later epoch ${later.pkg.epoch}: amount ${later.pkg.amount}, paid only the difference ${later.paid}`);
  return { first: { epoch: first.pkg.epoch, paid: first.paid }, later: { epoch: later.pkg.epoch, paid: later.paid } };
}
