import { once } from 'node:events';
import { Writable } from 'node:stream';
import { Module } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { RedisModule, REQUEST_COMMAND_TIMEOUT_MS } from '@rcs/queue';
import { createTestRedis, metricValue, scrapeMetrics, SseClient, TestRedis } from '@rcs/testing';
import { createHttpApp, listen } from '../http-app';
import { createLogger } from '../logger';
import { TrustedProxies } from '../net/trusted-proxies';
import { compareStreamIds, EventStream, EventStreamOptions } from './event-stream';
import { EventStreamModule } from './event-stream.module';
import { createEventsController } from './events.controller';

/** The shared event stream as the services run it: the fail-fast Redis client of RedisModule, real HTTP. */
describe('EventStream on a real Redis', () => {
  let redis: TestRedis;
  const apps: NestFastifyApplication[] = [];
  const clients: SseClient[] = [];

  async function start(options: Partial<EventStreamOptions>): Promise<{ url: string; stream: EventStream; lines: string[] }> {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(chunk.toString());
        callback();
      },
    });
    @Module({
      imports: [
        RedisModule.forRootAsync({ useFactory: () => ({ url: redis.url, connectionName: 'event-stream-test' }) }),
        EventStreamModule.forRoot({
          key: `${redis.prefix}:events:${apps.length}`,
          maxLength: 1000,
          heartbeatMs: 60_000,
          maxStreamsPerClient: 8,
          maxStreams: 100,
          maxIdleMs: 60_000,
          trustedProxies: TrustedProxies.parse([]).proxies,
          ...options,
        }),
      ],
      controllers: [createEventsController(['- `test`: `{}` — a test event.'])],
    })
    class EventsTestModule {}
    const app = await createHttpApp(EventsTestModule, { logger: createLogger({ level: 'debug', name: 'event-stream-test', destination }) });
    apps.push(app);
    return { url: await listen(app, 0, '127.0.0.1'), stream: app.get(EventStream), lines };
  }

  const connect = async (url: string): Promise<SseClient> => {
    const client = await SseClient.connect(`${url}/api/v1/events`);
    clients.push(client);
    expect(client.response.statusCode).toBe(200);
    return client;
  };

  /** The log lines at warn (pino level 40) or above. */
  const warnings = (lines: string[]) => lines.filter((line) => (JSON.parse(line) as { level: number }).level >= 40);

  beforeAll(async () => {
    redis = await createTestRedis();
  });

  afterAll(async () => {
    for (const client of clients) client.close();
    for (const app of apps) await app.close();
    await redis.cleanup();
  });

  it('an idle stream open across blocking reads longer than the request timeout logs no warning (issue 26)', async () => {
    // A block longer than the fail-fast client's command timeout, as in production (5 s against 2 s).
    const { url, stream, lines } = await start({ readBlockMs: REQUEST_COMMAND_TIMEOUT_MS + 500 });
    const reads: string[] = [];
    stream.activity.on('read', (outcome) => reads.push(outcome));
    await connect(url);
    while (reads.length < 2) await once(stream.activity, 'read');
    expect(reads).toEqual(['empty', 'empty']);
    expect(warnings(lines)).toEqual([]);
  });

  it('closes a stream whose client stopped reading once its output waited EVENTS_MAX_IDLE_SECONDS, and frees its slot', async () => {
    const { url, stream } = await start({ maxIdleMs: 1000 });
    const reader = await connect(url);
    const stalled = await connect(url);
    stalled.pause();
    const ended = once(stream.activity, 'ended');

    // Events until the stalled client's socket takes no more (its kernel buffers are full): a fixed
    // amount could stay below them or pass the 1 MiB overflow bound, so the loop watches the server.
    const pad = 'x'.repeat(64 * 1024);
    let published = 0;
    while (stream.waiting === 0) {
      expect(published).toBeLessThan(1000);
      const id = await stream.publish('filler', { pad });
      published += 1;
      while (id !== null && compareStreamIds(stream.position, id) < 0) await once(stream.activity, 'read');
      // The callbacks of writes the kernel took at once run before this.
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(stream.waiting).toBe(1);

    const [reason] = (await ended) as [string];
    expect(reason).toBe('idle');
    expect(stream.openFor('127.0.0.1')).toBe(1);
    // The reading client got every event and is still open.
    expect((await reader.take(published, 20_000)).every((event) => event.event === 'filler')).toBe(true);
    expect(reader.ended).toBe(false);
    stalled.resume();
    await stalled.end();

    const metrics = await scrapeMetrics(url);
    expect(metricValue(metrics, 'events_streams_ended_total', { reason: 'idle' })).toBe(1);
    expect(metricValue(metrics, 'events_streams_open')).toBe(1);
  });
});
