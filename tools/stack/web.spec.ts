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

  it('sends the security headers of DECISIONS §14 on every answer, its CSP connecting to the configured services only', async () => {
    const server = await serveWeb('127.0.0.1', await freePort(), { coordinator: 'https://coordinator.example.org/', pool: 'http://127.0.0.1:8434' });
    try {
      for (const answer of [await fetch(`${server.url}/config.json`), await fetch(`${server.url}/no-such-file.js`), await fetch(`${server.url}/`, { method: 'POST' })]) {
        expect({
          csp: answer.headers.get('content-security-policy'),
          nosniff: answer.headers.get('x-content-type-options'),
          referrer: answer.headers.get('referrer-policy'),
        }).toEqual({
          csp: "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self' https://coordinator.example.org http://127.0.0.1:8434; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
          nosniff: 'nosniff',
          referrer: 'no-referrer',
        });
      }
    } finally {
      await server.close();
    }
  });

  it('lets the CSP connect to the weight setter and the runner when config.json names them', async () => {
    const server = await serveWeb('127.0.0.1', await freePort(), {
      coordinator: 'http://127.0.0.1:8000',
      pool: 'http://127.0.0.1:8434',
      weight_setter: 'http://127.0.0.1:8200/',
      validator_runner: null,
    });
    try {
      const answer = await fetch(`${server.url}/config.json`);
      expect(answer.headers.get('content-security-policy')).toContain("connect-src 'self' http://127.0.0.1:8000 http://127.0.0.1:8434 http://127.0.0.1:8200;");
      await expect(answer.json()).resolves.toMatchObject({ weight_setter: 'http://127.0.0.1:8200/', validator_runner: null });
    } finally {
      await server.close();
    }
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
