import { once } from 'node:events';
import { Writable } from 'node:stream';
import { Module } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { RedisModule, REQUEST_COMMAND_TIMEOUT_MS } from '@rcs/queue';
import { createTestRedis, SseClient, TestRedis } from '@rcs/testing';
import { createHttpApp, listen } from '../http-app';
import { createLogger } from '../logger';
import { EventStream, EventStreamOptions } from './event-stream';
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
          ...options,
        }),
      ],
      controllers: [createEventsController('test events')],
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
});
