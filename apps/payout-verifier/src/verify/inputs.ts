import { readRewardSnapshot } from '@rcs/client';
import type { RewardSnapshotDto } from '@rcs/contracts';
import type { RecipientRecord } from './recipient-rule';
import { sha256Hex } from './recompute';

/** An input could not be read (unreachable, timed out, answered 5xx or nonsense): the epoch stays `unverified` and is retried. */
export class InputUnavailableError extends Error {
  constructor(
    readonly input: string,
    message: string,
  ) {
    super(message);
    this.name = 'InputUnavailableError';
  }
}

/** The pool's record of an epoch (`/claims/epoch/{epoch}`): where its allocation is. */
export interface PoolEpochRecord {
  epoch: number;
  allocation_uri: string;
}

/** How many recipient histories are read at once. */
const HISTORY_CONCURRENCY = 16;

/**
 * The verifier's reads over HTTP (DECISIONS §16): the pool's epoch list and records, the allocation
 * at an epoch's uri, the coordinator's snapshots by SHA-256 and the miners' recipient histories. Any
 * failure to read is an `InputUnavailableError`; only a coordinator that answers 404 for a snapshot
 * says it never served it.
 */
export class VerifierInputs {
  /** Aborted by `stop()`: reads in flight end at once, later ones fail before they start. */
  private readonly stopped = new AbortController();

  constructor(private readonly options: { coordinatorUrl: string; poolUrl: string; claimsMountPrefix: string; timeoutMs: number }) {}

  /** The app is closing: every read in flight or asked for later fails as unavailable (`stopped`). */
  stop(): void {
    this.stopped.abort(new Error('stopped'));
  }

  /** Every epoch the pool stored, oldest first. */
  async poolEpochs(): Promise<number[]> {
    const body = (await this.json('pool', `${this.options.poolUrl}${this.options.claimsMountPrefix}/epochs`)) as { epochs?: unknown };
    if (!Array.isArray(body.epochs) || !body.epochs.every((e) => Number.isSafeInteger(e))) throw new InputUnavailableError('pool', 'the pool’s epoch list is not a list of epochs');
    return (body.epochs as number[]).slice().sort((a, b) => a - b);
  }

  async epochRecord(epoch: number): Promise<PoolEpochRecord> {
    const body = (await this.json('pool', `${this.options.poolUrl}${this.options.claimsMountPrefix}/epoch/${epoch}`)) as Partial<PoolEpochRecord>;
    if (typeof body.allocation_uri !== 'string') throw new InputUnavailableError('pool', `the pool’s record of epoch ${epoch} has no allocation_uri`);
    return { epoch, allocation_uri: body.allocation_uri };
  }

  /** The bytes at the epoch's uri, exactly as served. */
  async allocation(uri: string): Promise<Uint8Array> {
    return (await this.fetch('allocation', uri)).bytes;
  }

  /** The snapshot the coordinator served under `sha256`, checked against its bytes; null when it answers 404 (never served). */
  async snapshot(sha256: string): Promise<RewardSnapshotDto | null> {
    const answer = await this.fetch('coordinator', `${this.options.coordinatorUrl}/api/v1/reward-snapshots/${sha256}`, true);
    if (answer === null) return null;
    if (sha256Hex(answer.bytes) !== sha256) throw new InputUnavailableError('coordinator', `the coordinator answered other bytes for snapshot ${sha256}`);
    try {
      return readRewardSnapshot(answer.bytes);
    } catch (error) {
      throw new InputUnavailableError('coordinator', `snapshot ${sha256}: ${(error as Error).message}`);
    }
  }

  /** The signed recipient records of each hotkey (a hotkey the pool does not know has none). */
  async recipientHistories(hotkeys: readonly string[]): Promise<Map<string, RecipientRecord[]>> {
    const out = new Map<string, RecipientRecord[]>();
    let next = 0;
    const worker = async () => {
      while (next < hotkeys.length) {
        const hotkey = hotkeys[next++];
        const answer = await this.fetch('pool', `${this.options.poolUrl}/api/v1/miners/recipient-coldkey/${hotkey}/history`, true);
        const records = answer === null ? [] : (JSON.parse(Buffer.from(answer.bytes).toString('utf8')) as { records?: RecipientRecord[] }).records;
        if (!Array.isArray(records)) throw new InputUnavailableError('pool', `the recipient history of ${hotkey} is not a list`);
        out.set(hotkey, records);
      }
    };
    await Promise.all(Array.from({ length: Math.min(HISTORY_CONCURRENCY, hotkeys.length) }, worker));
    return out;
  }

  private async json(input: string, url: string): Promise<unknown> {
    const answer = await this.fetch(input, url);
    try {
      return JSON.parse(Buffer.from(answer.bytes).toString('utf8'));
    } catch {
      throw new InputUnavailableError(input, `${url} did not answer JSON`);
    }
  }

  private fetch(input: string, url: string): Promise<{ bytes: Uint8Array }>;
  private fetch(input: string, url: string, notFoundIsNull: true): Promise<{ bytes: Uint8Array } | null>;
  private async fetch(input: string, url: string, notFoundIsNull = false): Promise<{ bytes: Uint8Array } | null> {
    let response: Response;
    try {
      response = await fetch(url, { signal: AbortSignal.any([AbortSignal.timeout(this.options.timeoutMs), this.stopped.signal]) });
    } catch (error) {
      throw new InputUnavailableError(input, `${url}: ${(error as Error).message}`);
    }
    if (response.status === 404 && notFoundIsNull) return null;
    if (!response.ok) throw new InputUnavailableError(input, `${url} answered ${response.status}`);
    return { bytes: new Uint8Array(await response.arrayBuffer()) };
  }
}
