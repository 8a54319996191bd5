import { join } from 'node:path';
import { freePort } from '@rcs/testing';
import { serveWeb, staticFile, WEB_DIST } from './web';

describe('the stack web server', () => {
  it('maps URL paths into dist/apps/web and nothing outside it', () => {
    expect(staticFile('/')).toBe(join(WEB_DIST, 'index.html'));
    expect(staticFile('/assets/index-abc.js?v=1')).toBe(join(WEB_DIST, 'assets', 'index-abc.js'));
    expect(staticFile('/../../package.json')).toBeNull();
    expect(staticFile('/%2e%2e/%2e%2e/package.json')).toBeNull();
    expect(staticFile('/%E0%A4%A')).toBeNull();
  });

  it('answers the generated config.json, 404 for what it does not hold and 405 for writes', async () => {
    const config = { coordinator: 'http://127.0.0.1:1', pool: 'http://127.0.0.1:2' };
    const server = await serveWeb('127.0.0.1', await freePort(), config);
    try {
      const answer = await fetch(`${server.url}/config.json`);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('cache-control')).toBe('no-store');
      await expect(answer.json()).resolves.toEqual(config);
      expect((await fetch(`${server.url}/no-such-file.js`)).status).toBe(404);
      expect((await fetch(`${server.url}/%2e%2e/%2e%2e/package.json`)).status).toBe(404);
      expect((await fetch(`${server.url}/config.json`, { method: 'POST' })).status).toBe(405);
    } finally {
      await server.close();
    }
  });
});
