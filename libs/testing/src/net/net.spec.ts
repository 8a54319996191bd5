import { createServer, type Server } from 'node:http';
import { WaitForHttpTimeoutError } from '../errors';
import { freePort } from './free-port';
import { waitForHttp } from './wait-for-http';

function listen(server: Server, port: number): Promise<void> {
  return new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
}

function close(server: Server): Promise<void> {
  return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
}

describe('freePort', () => {
  it('returns a port that can be bound right away', async () => {
    const port = await freePort();
    const server = createServer();
    await listen(server, port);
    expect(server.address()).toMatchObject({ port });
    await close(server);
  });
});

describe('waitForHttp', () => {
  it('polls until the server answers 2xx', async () => {
    let calls = 0;
    // Answers 503 twice, as a booting app's /readyz does, then 200.
    const server = createServer((_req, res) => {
      calls += 1;
      res.statusCode = calls <= 2 ? 503 : 200;
      res.end();
    });
    const port = await freePort();
    await listen(server, port);
    try {
      expect(await waitForHttp(`http://127.0.0.1:${port}/readyz`, 5000, { intervalMs: 10 })).toEqual({ status: 200, attempts: 3 });
    } finally {
      await close(server);
    }
  });

  it('accepts a custom ready predicate', async () => {
    const server = createServer((_req, res) => {
      res.statusCode = 404;
      res.end();
    });
    const port = await freePort();
    await listen(server, port);
    try {
      expect(await waitForHttp(`http://127.0.0.1:${port}/`, 1000, { ready: (s) => s === 404 })).toEqual({
        status: 404,
        attempts: 1,
      });
    } finally {
      await close(server);
    }
  });

  it('gives up after a bounded number of attempts with a typed error', async () => {
    const port = await freePort();
    const error: unknown = await waitForHttp(`http://127.0.0.1:${port}/`, 300, { intervalMs: 50 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WaitForHttpTimeoutError);
    const timeout = error as WaitForHttpTimeoutError;
    expect(timeout.attempts).toBeGreaterThan(0);
    expect(timeout.attempts).toBeLessThanOrEqual(6);
    expect(timeout.lastOutcome).toContain('ECONNREFUSED');
  });
});
