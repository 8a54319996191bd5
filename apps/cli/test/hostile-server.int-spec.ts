import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EXIT } from '../src/errors';
import { CLI_BODY_BYTES } from '../src/http/limits';
import { rcs } from './support/run-cli';

type Behaviour = (request: IncomingMessage, response: ServerResponse) => void;

const CHUNK = Buffer.alloc(64 * 1024, 'x');

/**
 * Issue 35 item 2: `rcs` against a hostile coordinator. Before, `rcs tasks` read an endless body until it held 6 GB
 * and died with a stack trace; now every answer is bounded (a size per kind of answer, a total timeout and an idle
 * timeout), and each of these ends with exit 3 and one line on stderr.
 */
describe('rcs against a hostile coordinator', () => {
  let server: Server;
  let url = '';
  let behaviour: Behaviour = (_request, response) => response.end();
  /** Bytes the server managed to write of its last body before the client hung up. */
  let written = 0;
  const timers = new Set<NodeJS.Timeout>();

  /** Writes 64 KiB chunks for as long as the client reads them. */
  const endless = (response: ServerResponse): void => {
    const pump = (): void => {
      while (!response.destroyed && response.write(CHUNK)) written += CHUNK.length;
      if (!response.destroyed) response.once('drain', pump);
    };
    response.on('close', () => response.removeAllListeners('drain'));
    pump();
  };
  /** One byte every 50 ms, for ever. */
  const drip = (response: ServerResponse): void => {
    const timer = setInterval(() => (response.destroyed ? clearInterval(timer) : response.write('[')), 50);
    timers.add(timer);
  };

  beforeAll(async () => {
    server = createServer((request, response) => behaviour(request, response));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  beforeEach(() => {
    written = 0;
  });

  afterAll(async () => {
    for (const timer of timers) clearInterval(timer);
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const run = (args: string[], env: NodeJS.ProcessEnv = {}) => rcs(args, { HOME: '/nonexistent-home', RCS_COORDINATOR_URL: url, ...env });
  const expectOneLine = (stderr: string, words: RegExp): void => {
    expect(stderr.split('\n').filter((line) => line !== '')).toHaveLength(1);
    expect(stderr).toMatch(/^rcs: unreachable: /);
    expect(stderr).toMatch(words);
    expect(stderr).not.toMatch(/\n\s+at /);
  };

  it('stops reading an endless JSON body at its bound: exit 3, one line', async () => {
    behaviour = (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      endless(response);
    };
    const result = await run(['tasks']);
    expect(result.code).toBe(EXIT.unreachable);
    expectOneLine(result.stderr, /\/api\/v1\/tasks\?limit=100: .*larger than 32 MiB/);
    // The client hung up near its bound (socket buffers hold a few chunks more), not gigabytes later.
    expect(written).toBeLessThan(CLI_BODY_BYTES.documentBytes + 16 * 1024 * 1024);
  });

  it('refuses a declared Content-Length above the bound before reading it', async () => {
    behaviour = (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': String(10 * 1024 ** 3) });
      endless(response);
    };
    const result = await run(['tasks', '--json']);
    expect(result).toMatchObject({ code: EXIT.unreachable, stdout: '' });
    expectOneLine(result.stderr, /larger than 32 MiB/);
  });

  it('bounds an error body far below a document', async () => {
    behaviour = (_request, response) => {
      response.writeHead(500, { 'content-type': 'application/json' });
      endless(response);
    };
    const result = await run(['task', 'x']);
    expect(result.code).toBe(EXIT.unreachable);
    expectOneLine(result.stderr, /larger than 1 MiB/);
    expect(written).toBeLessThan(CLI_BODY_BYTES.errorBytes + 16 * 1024 * 1024);
  });

  it('bounds the Markdown of rcs onboard by its own size', async () => {
    behaviour = (_request, response) => {
      response.writeHead(200, { 'content-type': 'text/markdown' });
      endless(response);
    };
    const result = await run(['onboard', 'x']);
    expect(result.code).toBe(EXIT.unreachable);
    expectOneLine(result.stderr, /onboard\.md: .*larger than 4 MiB/);
  });

  it('gives up on a body that stalls (RCS_HTTP_IDLE_SECONDS)', async () => {
    behaviour = (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.write('[{"id":');
    };
    const result = await run(['tasks'], { RCS_HTTP_IDLE_SECONDS: '0.3' });
    expect(result.code).toBe(EXIT.unreachable);
    expectOneLine(result.stderr, /stalled: no data for 0\.3 s/);
  });

  it('gives up on a body that trickles past the total timeout (RCS_HTTP_TIMEOUT_SECONDS)', async () => {
    behaviour = (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      drip(response);
    };
    const result = await run(['tasks'], { RCS_HTTP_TIMEOUT_SECONDS: '0.5' });
    expect(result.code).toBe(EXIT.unreachable);
    expectOneLine(result.stderr, /timed out/);
  });

  it('refuses (exit 1) an answer that breaks the contract, naming the field, instead of printing it as if it were a task', async () => {
    behaviour = (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify([{ id: 7, slug: 's' }]));
    };
    const result = await run(['tasks']);
    expect(result).toMatchObject({ code: EXIT.refused, stdout: '' });
    expect(result.stderr).toMatch(/^rcs: \/api\/v1\/tasks answered a document that breaks the contract: \[0\]\.id must be a string; /);
  });

  it('bounds one event of the event stream in rcs watch', async () => {
    behaviour = (request, response) => {
      if (request.url?.startsWith('/api/v1/events')) {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write('data: ');
        endless(response);
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      // A submission as the contract has it (rcs checks every answer against its DTO).
      response.end(JSON.stringify({ id: 'x', task_id: 't', claim_id: 'c', miner_hotkey: 'h', base_ref: 'main', claimed_metrics: {}, status: 'pending_verification' }));
    };
    const result = await run(['watch', 'x', '--json'], { RCS_KEY_URI: '//Alice' });
    expect(result.code).toBe(EXIT.unreachable);
    expectOneLine(result.stderr, /an event is larger than 1 MiB/);
  });
});
