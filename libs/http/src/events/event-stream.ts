import { EventEmitter } from 'node:events';
import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { duplicateRedis, REDIS, REQUEST_COMMAND_TIMEOUT_MS } from '@rcs/queue';
import type { Counter } from 'prom-client';
import { AppMetrics } from '../metrics/app-metrics';
import type { TrustedProxies } from '../net/trusted-proxies';
import { StreamAdmission, StreamLimits, StreamSlot, tooManyStreams } from './stream-admission';

/** One event of a service's public stream: the Redis stream id, the event name and its JSON payload text. */
export interface StreamEvent {
  id: string;
  type: string;
  data: string;
}

export interface EventStreamOptions extends StreamLimits {
  /** The Redis stream key (one per service). */
  key: string;
  /** Approximate bound of the stream (XADD MAXLEN ~): how far back a client can resume. */
  maxLength: number;
  /** How often an idle connection gets a comment line, so proxies keep it open. */
  heartbeatMs: number;
  /** A stream whose client takes none of the output waiting for it for this long is closed (`EVENTS_MAX_IDLE_SECONDS`). */
  maxIdleMs: number;
  /** Proxies whose `X-Forwarded-For` names the client a stream is counted against (`TRUSTED_PROXIES`). */
  trustedProxies: TrustedProxies;
  /** How long one read of the stream blocks in Redis; `READ_BLOCK_MS` unless a test shortens it. */
  readBlockMs?: number;
}

export const EVENT_STREAM_OPTIONS = Symbol('EVENT_STREAM_OPTIONS');

/** A client connection: receives events through `deliver`, closed by the stream on shutdown. */
export interface EventSubscriber {
  deliver(event: StreamEvent): void;
  heartbeat(): void;
  close(): void;
  /** Whether output written to the client is still waiting for it to be taken. */
  waiting(): boolean;
}

/** Why an open stream ended: its client went, it stopped reading (`idle`), fell too far behind (`overflow`), the service stopped, or Redis failed it. */
export type StreamEndReason = 'client' | 'idle' | 'overflow' | 'shutdown' | 'unavailable';

/** What the stream reports as it works, for metrics and for tests that wait on it instead of on time. */
export interface EventStreamActivity {
  /** One blocking read of the Redis stream returned: with events, empty after its block, or failed. */
  read: [outcome: 'events' | 'empty' | 'failed'];
  /** An open stream ended. */
  ended: [reason: StreamEndReason];
}

/** Stream ids are `<ms>-<seq>`; what a client may send back as `Last-Event-ID`. */
export const STREAM_ID = /^[0-9]{1,20}-[0-9]{1,20}$/;

/** -1, 0 or 1 as stream id `a` is before, equal to or after `b`. */
export function compareStreamIds(a: string, b: string): number {
  const [am, as] = a.split('-');
  const [bm, bs] = b.split('-');
  const ms = BigInt(am) - BigInt(bm);
  if (ms !== 0n) return ms < 0n ? -1 : 1;
  const seq = BigInt(as) - BigInt(bs);
  return seq === 0n ? 0 : seq < 0n ? -1 : 1;
}

/** How long one read of the Redis stream blocks; its connection's command timeout is longer by `REQUEST_COMMAND_TIMEOUT_MS`. */
export const READ_BLOCK_MS = 5000;
const RANGE_BATCH = 500;

type RawEntry = [id: string, fields: string[]];

function toEvent([id, fields]: RawEntry): StreamEvent {
  let type = '';
  let data = '{}';
  for (let i = 0; i + 1 < fields.length; i += 2) {
    if (fields[i] === 'type') type = fields[i + 1];
    else if (fields[i] === 'data') data = fields[i + 1];
  }
  return { id, type, data };
}

/**
 * A service's public events (DECISIONS §14) in a bounded Redis stream: publishers XADD after their
 * change has committed; each replica tails the stream with one blocking reader and fans it out to
 * its open connections, so every replica serves every event and a client resumes on any of them.
 */
@Injectable()
export class EventStream implements OnModuleDestroy {
  readonly activity = new EventEmitter<EventStreamActivity>();
  private readonly logger = new Logger('EventStream');
  private readonly subscribers = new Set<EventSubscriber>();
  private readonly admission: StreamAdmission;
  private readonly refused: Counter<'scope'>;
  private reader: Redis | null = null;
  private started: Promise<void> | null = null;
  private loop: Promise<void> | null = null;
  private cursor = '0-0';
  private heartbeat: NodeJS.Timeout | null = null;
  private stopped = false;
  /** Set while reads keep failing, so an outage is one warning and one recovery line, not one per retry. */
  private failingSince: number | null = null;

  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(EVENT_STREAM_OPTIONS) readonly options: EventStreamOptions,
    metrics: AppMetrics,
  ) {
    this.admission = new StreamAdmission(options);
    const admission = this.admission;
    metrics.gauge({
      name: 'events_streams_open',
      help: 'Event streams (GET /api/v1/events) open in this process.',
      collect() {
        this.set(admission.open);
      },
    });
    this.refused = metrics.counter({
      name: 'events_streams_refused_total',
      help: 'Event streams refused with 429 too_many_streams, by the limit met (client: EVENTS_MAX_STREAMS_PER_CLIENT, total: EVENTS_MAX_STREAMS).',
      labelNames: ['scope'],
    });
    const ended = metrics.counter({
      name: 'events_streams_ended_total',
      help: 'Event streams ended, by reason (client, idle, overflow, shutdown, unavailable).',
      labelNames: ['reason'],
    });
    this.activity.on('ended', (reason) => ended.inc({ reason }));
  }

  /**
   * Takes a slot for one more stream of `client` (DECISIONS §14), or throws 429 `too_many_streams`
   * with `Retry-After` past `EVENTS_MAX_STREAMS_PER_CLIENT` or `EVENTS_MAX_STREAMS`.
   */
  admit(client: string): StreamSlot {
    const admitted = this.admission.admit(client);
    if ('release' in admitted) return admitted;
    this.refused.inc({ scope: admitted.scope });
    throw tooManyStreams(admitted);
  }

  /** Streams open for `client` now. */
  openFor(client: string): number {
    return this.admission.openFor(client);
  }

  /** Open streams whose client has not yet taken everything written to it. */
  get waiting(): number {
    let count = 0;
    for (const subscriber of this.subscribers) if (subscriber.waiting()) count += 1;
    return count;
  }

  /** Records that an open stream ended, and why. */
  ended(reason: StreamEndReason): void {
    this.activity.emit('ended', reason);
  }

  /** Appends an event; never throws (the change it reports has committed): a failure is logged. */
  async publish(type: string, payload: object): Promise<string | null> {
    try {
      return await this.redis.xadd(this.options.key, 'MAXLEN', '~', String(this.options.maxLength), '*', 'type', type, 'data', JSON.stringify(payload));
    } catch (error) {
      this.logger.warn(`Event ${type} not published: ${(error as Error).message}`);
      return null;
    }
  }

  /** The events after `afterId` (exclusive), oldest first, at most `count`. */
  async after(afterId: string, count = RANGE_BATCH): Promise<StreamEvent[]> {
    const entries = (await this.redis.xrange(this.options.key, `(${afterId}`, '+', 'COUNT', count)) as RawEntry[];
    return entries.map(toEvent);
  }

  /** The id of the newest event this replica's reader has handed to its open streams ('0-0' before it starts). */
  get position(): string {
    return this.cursor;
  }

  get open(): number {
    return this.subscribers.size;
  }

  /**
   * Subscribes `subscriber` to every event after `lastEventId` (exclusive), or after now when null:
   * first the stored ones in order, then the live ones, each exactly once.
   */
  async subscribe(subscriber: EventSubscriber, lastEventId: string | null): Promise<() => void> {
    let last = lastEventId;
    let backlog: StreamEvent[] | null = [];
    const send = (event: StreamEvent) => {
      if (last !== null && compareStreamIds(event.id, last) <= 0) return;
      last = event.id;
      subscriber.deliver(event);
    };
    // Joined before the catch-up read, so nothing published meanwhile is missed; duplicates are dropped by id.
    const member: EventSubscriber = {
      deliver: (event) => (backlog ? backlog.push(event) : send(event)),
      heartbeat: () => subscriber.heartbeat(),
      close: () => subscriber.close(),
      waiting: () => subscriber.waiting(),
    };
    this.subscribers.add(member);
    const unsubscribe = () => void this.subscribers.delete(member);
    try {
      await this.start();
      if (last === null) last = this.cursor;
      for (;;) {
        const batch = await this.after(last);
        for (const event of batch) send(event);
        if (batch.length < RANGE_BATCH) break;
      }
    } catch (error) {
      unsubscribe();
      throw error;
    }
    const pending = backlog;
    backlog = null;
    for (const event of pending) send(event);
    return unsubscribe;
  }

  /** Resolves once this replica tails the stream (Redis answered). */
  ready(): Promise<void> {
    return this.start();
  }

  private start(): Promise<void> {
    this.started ??= (async () => {
      const newest = (await this.redis.xrevrange(this.options.key, '+', '-', 'COUNT', 1)) as RawEntry[];
      this.cursor = newest.length > 0 ? newest[0][0] : '0-0';
      // A blocking read needs its own connection; it waits for Redis rather than failing fast, and
      // its command timeout (the request client's is shorter than a block) must outlast a block.
      this.reader = duplicateRedis(this.redis, 'events', {
        enableOfflineQueue: true,
        maxRetriesPerRequest: null,
        commandTimeout: this.blockMs + REQUEST_COMMAND_TIMEOUT_MS,
      });
      this.reader.on('error', () => undefined);
      this.loop = this.tail(this.reader);
      this.heartbeat = setInterval(() => {
        for (const subscriber of this.subscribers) subscriber.heartbeat();
      }, this.options.heartbeatMs);
      this.heartbeat.unref();
    })().catch((error: unknown) => {
      this.started = null;
      throw error;
    });
    return this.started;
  }

  private get blockMs(): number {
    return this.options.readBlockMs ?? READ_BLOCK_MS;
  }

  private async tail(reader: Redis): Promise<void> {
    while (!this.stopped) {
      try {
        const result = (await reader.xread('COUNT', RANGE_BATCH, 'BLOCK', this.blockMs, 'STREAMS', this.options.key, this.cursor)) as
          | [string, RawEntry[]][]
          | null;
        this.recovered();
        for (const [, entries] of result ?? []) {
          for (const entry of entries) {
            this.cursor = entry[0];
            const event = toEvent(entry);
            for (const subscriber of this.subscribers) subscriber.deliver(event);
          }
        }
        this.activity.emit('read', result ? 'events' : 'empty');
      } catch (error) {
        if (this.stopped) return;
        this.failed(error as Error);
        this.activity.emit('read', 'failed');
        await new Promise((resolve) => setTimeout(resolve, 1000).unref());
      }
    }
  }

  private failed(error: Error): void {
    if (this.failingSince === null) {
      this.failingSince = Date.now();
      this.logger.warn(`Reading the event stream failed: ${error.message}; retrying every second`);
    } else {
      this.logger.debug(`Reading the event stream failed again: ${error.message}`);
    }
  }

  private recovered(): void {
    if (this.failingSince === null) return;
    this.logger.log(`Reading the event stream again after ${Math.round((Date.now() - this.failingSince) / 1000)} s of failures`);
    this.failingSince = null;
  }

  /** Ends every open connection (an app close must not wait on them) and the reader. */
  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.heartbeat) clearInterval(this.heartbeat);
    for (const subscriber of this.subscribers) subscriber.close();
    this.subscribers.clear();
    if (this.reader) {
      this.reader.disconnect();
      await this.loop;
    }
  }
}
