import { once, type EventEmitter } from 'node:events';
import { metricValue, scrapeMetrics } from './metrics-text';
import { SseClient } from './sse-client';

/** What the suite reads of a service's event stream (`@rcs/http`'s `EventStream`). */
export interface StreamCounter {
  activity: EventEmitter;
  openFor(client: string): number;
}

/** A started service: its URL and its event stream. */
export interface StreamLimitTarget {
  url: string;
  stream(): StreamCounter;
}

export interface EventStreamLimitSuite {
  /** Starts the service with `env` for the enclosing describe block (beforeAll/afterAll) and hands it to `use`. */
  startForSuite(env: Record<string, string>, use: (target: StreamLimitTarget) => void): void;
  /** Routes that must keep answering 200 while the streams are held (the ones a flood once reset). */
  answering: string[];
}

/**
 * The event-stream bounds every service shares (DECISIONS §14), as one suite each app runs against itself:
 * EVENTS_MAX_STREAMS_PER_CLIENT per client address, EVENTS_MAX_STREAMS in all, 429 too_many_streams with
 * Retry-After beyond them, and every other route keeps answering. A flood once opened streams until the
 * process ran out of descriptors.
 */
export function describeEventStreamLimits(service: string, suite: EventStreamLimitSuite): void {
  describe(`${service} event stream limits`, () => {
    const clients: SseClient[] = [];

    const open = async (h: StreamLimitTarget, forwardedFor?: string): Promise<SseClient> => {
      const client = await SseClient.connect(`${h.url}/api/v1/events`, forwardedFor ? { 'x-forwarded-for': forwardedFor } : {});
      clients.push(client);
      return client;
    };

    /** Closes `client` and waits until the server has let go of its stream. */
    const closeStream = async (h: StreamLimitTarget, client: SseClient): Promise<void> => {
      const ended = once(h.stream().activity, 'ended');
      client.close();
      expect(await ended).toEqual(['client']);
    };

    const refused = async (h: StreamLimitTarget, forwardedFor?: string) => {
      const response = await fetch(`${h.url}/api/v1/events`, { headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} });
      return { status: response.status, retryAfter: response.headers.get('retry-after'), body: (await response.json()) as unknown };
    };

    const stillAnswering = async (h: StreamLimitTarget) => {
      for (const path of suite.answering) {
        expect({ path, status: (await fetch(`${h.url}${path}`)).status }).toEqual({ path, status: 200 });
      }
    };

    afterAll(() => {
      for (const client of clients) client.close();
    });

    describe('with the defaults (8 per client)', () => {
      let h: StreamLimitTarget;
      suite.startForSuite({}, (started) => (h = started));

      it('a flood of 40 streams from one address opens 8; the rest are 429 too_many_streams with Retry-After, whatever X-Forwarded-For they claim', async () => {
        // No TRUSTED_PROXIES: the forwarded addresses are the client's own claims and count for nothing.
        const flood = await Promise.all(Array.from({ length: 40 }, (_, i) => open(h, `203.0.113.${i}`)));
        const statuses = flood.map((client) => client.response.statusCode);
        expect(statuses.filter((status) => status === 200)).toHaveLength(8);
        expect(statuses.filter((status) => status === 429)).toHaveLength(32);
        for (const client of flood.filter((c) => c.response.statusCode === 429)) client.close();
        expect(h.stream().openFor('127.0.0.1')).toBe(8);

        expect(await refused(h)).toEqual({
          status: 429,
          retryAfter: '30',
          body: {
            detail: {
              error: 'too_many_streams',
              message: 'This address has 8 event streams open, the most allowed; close one (or reuse it) and retry in 30 s.',
              scope: 'client',
              limit: 8,
              retry_after_seconds: 30,
            },
          },
        });
        await stillAnswering(h);
        const metrics = await scrapeMetrics(h.url);
        expect(metricValue(metrics, 'events_streams_open')).toBe(8);
        expect(metricValue(metrics, 'events_streams_refused_total', { scope: 'client' })).toBe(33);

        // Closing one frees its slot, for this client only.
        const open8 = flood.filter((c) => c.response.statusCode === 200);
        await closeStream(h, open8[0]);
        const again = await open(h);
        expect(again.response.statusCode).toBe(200);
        expect((await refused(h)).status).toBe(429);
      });
    });

    describe('behind a trusted proxy, with a small total', () => {
      let h: StreamLimitTarget;
      suite.startForSuite({ TRUSTED_PROXIES: '127.0.0.1', EVENTS_MAX_STREAMS: '3', EVENTS_MAX_STREAMS_PER_CLIENT: '2' }, (started) => (h = started));

      it('counts each forwarded client apart, holds the total across them, and admits the next once a stream closes', async () => {
        const a = [await open(h, '198.51.100.1'), await open(h, '198.51.100.1')];
        expect(a.map((client) => client.response.statusCode)).toEqual([200, 200]);
        expect(await refused(h, '198.51.100.1')).toMatchObject({ status: 429, retryAfter: '30', body: { detail: { error: 'too_many_streams', scope: 'client', limit: 2 } } });

        // A client's own claim left of the proxy's hop is not believed: this is 198.51.100.2.
        const b = await open(h, '192.0.2.1, 198.51.100.2');
        expect(b.response.statusCode).toBe(200);
        expect(await refused(h, '198.51.100.3')).toEqual({
          status: 429,
          retryAfter: '30',
          body: {
            detail: {
              error: 'too_many_streams',
              message: 'This server has 3 event streams open, the most it serves; retry in 30 s.',
              scope: 'total',
              limit: 3,
              retry_after_seconds: 30,
            },
          },
        });
        expect(['198.51.100.1', '198.51.100.2', '192.0.2.1'].map((client) => h.stream().openFor(client))).toEqual([2, 1, 0]);
        await stillAnswering(h);

        await closeStream(h, b);
        const c = await open(h, '198.51.100.3');
        expect(c.response.statusCode).toBe(200);
        expect((await refused(h, '198.51.100.4')).status).toBe(429);
      });
    });
  });
}
