import { Controller, Get, Module, Param, Post } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Writable } from 'node:stream';
import { createHttpApp, listen } from './http-app';
import { createLogger } from './logger';

@Controller()
class PollController {
  @Get('healthz')
  health(): { status: string } {
    return { status: 'ok' };
  }

  @Post('scan')
  scan(): { jobs: never[] } {
    return { jobs: [] };
  }

  @Get('items/:id')
  item(@Param('id') id: string): { id: string } {
    return { id };
  }
}

@Module({ controllers: [PollController] })
class PollModule {}

/** What every service gets from createHttpApp for operators: `/`, `/metrics`, quiet polling at info. */
describe('service index, metrics and polled routes', () => {
  const apps: NestFastifyApplication[] = [];

  async function start(level: string): Promise<{ url: string; lines: string[] }> {
    const lines: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        lines.push(chunk.toString());
        callback();
      },
    });
    const app = await createHttpApp(PollModule, {
      logger: createLogger({ level, name: 'poll-test', destination }),
      index: { service: 'poll-test', webUrl: 'http://ui.test', links: { scan: '/scan' } },
      polledRoutes: ['/scan'],
    });
    apps.push(app);
    return { url: await listen(app, 0, '127.0.0.1'), lines };
  }

  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  it('answers / with a JSON index pointing at the docs and the web UI', async () => {
    const { url } = await start('silent');
    const response = await fetch(`${url}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(await response.json()).toEqual({
      service: 'poll-test',
      web_ui: 'http://ui.test',
      docs: '/docs',
      redoc: '/redoc',
      openapi: '/openapi.json',
      metrics: '/metrics',
      healthz: '/healthz',
      readyz: '/readyz',
      scan: '/scan',
    });
  });

  it('logs probes and polled routes only at debug, other requests at info', async () => {
    const quiet = await start('info');
    await fetch(`${quiet.url}/healthz`);
    await fetch(`${quiet.url}/scan`, { method: 'POST' });
    await fetch(`${quiet.url}/items/7`);
    const logged = quiet.lines.join('');
    expect(logged).not.toContain('/healthz');
    expect(logged).not.toContain('/scan');
    expect(logged).toContain('/items/7');

    const verbose = await start('debug');
    await fetch(`${verbose.url}/healthz`);
    await fetch(`${verbose.url}/scan`, { method: 'POST' });
    const all = verbose.lines.join('');
    expect(all).toContain('/healthz');
    expect(all).toContain('/scan');
  });

  it('serves /metrics with the request histogram by route template', async () => {
    const { url } = await start('silent');
    for (const id of ['1', '2', '3']) await fetch(`${url}/items/${id}`);
    const text = await (await fetch(`${url}/metrics`)).text();
    expect(text).toContain('http_request_duration_seconds_count{method="GET",route="/items/:id",status_code="200"} 3\n');
    expect(text).not.toMatch(/route="\/items\/[0-9]/);
    expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
  });
});
