import { ApiError, ErrorCode } from '@rcs/contracts';

/** How many event streams one process keeps open (DECISIONS §14). */
export interface StreamLimits {
  /** `EVENTS_MAX_STREAMS_PER_CLIENT`: per client address. */
  maxStreamsPerClient: number;
  /** `EVENTS_MAX_STREAMS`: in all. */
  maxStreams: number;
}

/** What a refused client is told to wait: a slot frees only when another stream of the process closes. */
export const STREAM_RETRY_AFTER_SECONDS = 30;

/** One admitted stream's place in the limits; `release` gives it back (once, whatever calls it again). */
export interface StreamSlot {
  readonly client: string;
  release(): void;
}

/** Which limit refused a stream. */
export interface StreamRefusal {
  scope: 'client' | 'total';
  limit: number;
}

/**
 * Counts the open event streams of a process per client address and in all, and refuses one past
 * either limit before the stream takes a connection for good. Admission and release are synchronous,
 * so concurrent requests cannot both take the last slot.
 */
export class StreamAdmission {
  private readonly perClient = new Map<string, number>();
  private total = 0;

  constructor(private readonly limits: StreamLimits) {}

  get open(): number {
    return this.total;
  }

  /** Streams open for `client` now. */
  openFor(client: string): number {
    return this.perClient.get(client) ?? 0;
  }

  /** A slot for one more stream of `client`, or the limit it would pass. */
  admit(client: string): StreamSlot | StreamRefusal {
    const mine = this.openFor(client);
    if (mine >= this.limits.maxStreamsPerClient) return { scope: 'client', limit: this.limits.maxStreamsPerClient };
    if (this.total >= this.limits.maxStreams) return { scope: 'total', limit: this.limits.maxStreams };
    this.perClient.set(client, mine + 1);
    this.total += 1;
    let released = false;
    return {
      client,
      release: () => {
        if (released) return;
        released = true;
        this.total -= 1;
        const left = (this.perClient.get(client) ?? 1) - 1;
        if (left > 0) this.perClient.set(client, left);
        else this.perClient.delete(client);
      },
    };
  }
}

/** 429 `too_many_streams` with `Retry-After` (DECISIONS §1, §14), naming the limit met. */
export function tooManyStreams({ scope, limit }: StreamRefusal): ApiError {
  const message =
    scope === 'client'
      ? `This address has ${limit} event streams open, the most allowed; close one (or reuse it) and retry in ${STREAM_RETRY_AFTER_SECONDS} s.`
      : `This server has ${limit} event streams open, the most it serves; retry in ${STREAM_RETRY_AFTER_SECONDS} s.`;
  return new ApiError(
    ErrorCode.TooManyStreams,
    message,
    { scope, limit, retry_after_seconds: STREAM_RETRY_AFTER_SECONDS },
    { 'retry-after': String(STREAM_RETRY_AFTER_SECONDS) },
  );
}
