import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, IncomingHttpHeaders, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { VerificationStatus } from '@rcs/contracts';
import { LoopbackServer } from '../../test/support/loopback-server';
import { replayFailureOf } from '../../test/support/replay-failure-of';
import { downloadArtifact } from './artifact-download';
import { prefetchHeldout } from './heldout';
import type { DownloadPace } from './safe-download';

/** A plain HTTP server on loopback that records what it was asked; downloads reach it with the test-only flags. */
class FileServer extends LoopbackServer {
  readonly requests: { path: string; headers: IncomingHttpHeaders }[] = [];
  private readonly closedEarly = new Map<string, Promise<void>>();
  private readonly onClosedEarly = new Map<string, () => void>();
  protected readonly server: Server;

  constructor(private readonly routes: Record<string, (res: ServerResponse, headers: IncomingHttpHeaders) => void>) {
    super();
    this.server = createServer((req, res) => {
      const path = req.url ?? '/';
      this.requests.push({ path, headers: req.headers });
      res.on('close', () => {
        if (!res.writableFinished) this.earlyClose(path);
      });
      const route = this.routes[path];
      if (route) route(res, req.headers);
      else res.writeHead(404).end('not found');
    });
  }

  /** Resolves once a response on `path` was cut by the client before it finished. */
  closedBeforeEnd(path: string): Promise<void> {
    if (!this.closedEarly.has(path)) this.closedEarly.set(path, new Promise((resolve) => this.onClosedEarly.set(path, resolve)));
    return this.closedEarly.get(path) as Promise<void>;
  }

  private earlyClose(path: string): void {
    void this.closedBeforeEnd(path);
    this.onClosedEarly.get(path)?.();
  }
}

const BODY = randomBytes(64 * 1024);
const SHA = createHash('sha256').update(BODY).digest('hex');
const LOCAL = { allowInsecureHttp: true, allowPrivateAddresses: true };

/** Writes until the client goes away, with no Content-Length: only the runner's byte count can stop it. */
function endless(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/octet-stream' });
  const chunk = Buffer.alloc(16 * 1024, 1);
  const pump = () => {
    while (!res.destroyed && res.write(chunk));
    if (!res.destroyed) res.once('drain', pump);
  };
  pump();
}

/** One byte every 20 ms, for ever: fast enough for no idle timeout, far too slow to finish. */
function trickle(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/octet-stream' });
  const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(Buffer.alloc(1, 1))), 20);
  res.on('close', () => clearInterval(timer));
}

describe('artifact download and held-out prefetch against a local HTTP server', () => {
  let dir: string;
  let server: FileServer;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'runner-downloads-'));
    server = new FileServer({
      '/model.bin': (res) => res.writeHead(200, { 'content-length': BODY.length }).end(BODY),
      '/short.bin': (res) => res.writeHead(200).end(BODY.subarray(0, 1000)),
      '/moved': (res) => res.writeHead(302, { location: '/model.bin' }).end(),
      '/endless': endless,
      '/broken': (res) => res.writeHead(503).end('busy'),
      '/trickle': trickle,
      '/heldout/slow.jsonl': trickle,
      '/silent': () => undefined,
      '/heldout/rows.jsonl': (res, headers) => {
        if (headers.authorization !== 'Bearer heldout-secret-token') res.writeHead(401).end('no');
        else res.writeHead(200).end('{"x": 1}\n{"x": 2}\n');
      },
    });
    await server.start();
  });

  afterAll(async () => {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const download = (path: string, overrides: { sha256?: string; sizeBytes?: number; rules?: typeof LOCAL & { pace?: DownloadPace } } = {}) =>
    downloadArtifact(
      { uri: `${server.url}${path}`, sha256: overrides.sha256 ?? SHA, sizeBytes: overrides.sizeBytes ?? BODY.length },
      { directory: dir, rules: overrides.rules ?? LOCAL, maxBytes: 1024 * 1024 * 1024, signal: AbortSignal.timeout(10_000) },
    );

  it('streams the artifact to disk, checking its size and SHA-256', async () => {
    const artifact = await download('/model.bin');
    expect(artifact).toMatchObject({ bytes: BODY.length, sha256: SHA, path: join(dir, 'model.bin') });
    expect(readFileSync(artifact.path).equals(BODY)).toBe(true);
  });

  it('rejects a hash mismatch and a size mismatch', async () => {
    const hash = await replayFailureOf(download('/model.bin', { sha256: 'a'.repeat(64) }));
    expect(hash).toMatchObject({ status: VerificationStatus.Rejected, note: expect.stringMatching(/SHA-256 is [0-9a-f]{64}; the submission declares a{64}/) });
    const size = await replayFailureOf(download('/short.bin', { sizeBytes: BODY.length }));
    expect(size).toMatchObject({ status: VerificationStatus.Rejected, note: `The artifact is 1000 bytes; the submission declares ${BODY.length}.` });
  });

  it('refuses a Content-Length above the declared size before reading, and stops an endless stream at the declared size', async () => {
    const announced = await replayFailureOf(download('/model.bin', { sizeBytes: 100 }));
    expect(announced).toMatchObject({ status: VerificationStatus.Rejected, note: expect.stringMatching(/announces 65536 bytes, more than the 100/) });
    const endlessFailure = await replayFailureOf(download('/endless', { sizeBytes: 50_000 }));
    expect(endlessFailure).toMatchObject({ status: VerificationStatus.Rejected, note: expect.stringMatching(/went past 50000 bytes and was stopped/) });
    await server.closedBeforeEnd('/endless');
  });

  it('refuses redirects without following them', async () => {
    const before = server.requests.filter((r) => r.path === '/model.bin').length;
    const redirect = await replayFailureOf(download('/moved'));
    expect(redirect).toMatchObject({ status: VerificationStatus.Rejected, note: expect.stringMatching(/answered 302 \(a redirect\)/) });
    expect(server.requests.filter((r) => r.path === '/model.bin')).toHaveLength(before);
  });

  it('refuses loopback hosts (by address or by name) unless private hosts are allowed, without connecting', async () => {
    const before = server.requests.length;
    const byAddress = await replayFailureOf(download('/model.bin', { rules: { allowInsecureHttp: true, allowPrivateAddresses: false } }));
    expect(byAddress).toMatchObject({ status: VerificationStatus.Rejected, note: expect.stringMatching(/resolves to a loopback address/) });
    const port = new URL(server.url).port;
    const byName = await replayFailureOf(
      downloadArtifact(
        { uri: `http://localhost:${port}/model.bin`, sha256: SHA, sizeBytes: BODY.length },
        { directory: dir, rules: { allowInsecureHttp: true, allowPrivateAddresses: false }, maxBytes: 1 << 30, signal: AbortSignal.timeout(10_000) },
      ),
    );
    expect(byName.note).toMatch(/resolves to a loopback address/);
    expect(server.requests.length).toBe(before);
  });

  it('refuses http:// unless insecure URIs are allowed, and file:// always', async () => {
    const http = await replayFailureOf(download('/model.bin', { rules: { allowInsecureHttp: false, allowPrivateAddresses: true } }));
    expect(http).toMatchObject({ status: VerificationStatus.Rejected, note: expect.stringMatching(/http:\/\/ URLs are not allowed; only https:\/\//) });
    const file = await replayFailureOf(
      downloadArtifact({ uri: pathToFileURL(join(dir, 'model.bin')).href, sha256: SHA, sizeBytes: BODY.length }, { directory: dir, rules: LOCAL, maxBytes: 1 << 30, signal: AbortSignal.timeout(10_000) }),
    );
    expect(file).toMatchObject({ status: VerificationStatus.Rejected, note: expect.stringMatching(/file:\/\/ sources are not allowed/) });
  });

  it('calls a 4xx the submission’s fault and a 5xx or a refused connection the validator’s', async () => {
    expect(await replayFailureOf(download('/gone'))).toMatchObject({ status: VerificationStatus.Rejected, note: expect.stringMatching(/answered 404/) });
    expect(await replayFailureOf(download('/broken'))).toMatchObject({ status: VerificationStatus.Error, note: expect.stringMatching(/answered 503/) });
    const closed = await new Promise<number>((resolve) => {
      const probe = createServer();
      probe.listen(0, '127.0.0.1', () => {
        const port = (probe.address() as AddressInfo).port;
        probe.close(() => resolve(port));
      });
    });
    const refused = await replayFailureOf(
      downloadArtifact({ uri: `http://127.0.0.1:${closed}/x`, sha256: SHA, sizeBytes: 1 }, { directory: dir, rules: LOCAL, maxBytes: 1 << 30, signal: AbortSignal.timeout(10_000) }),
    );
    expect(refused).toMatchObject({ status: VerificationStatus.Error, note: expect.stringMatching(/ECONNREFUSED/) });
  });

  it('prefetches held-out rows with the Bearer token and writes a manifest of local paths', async () => {
    const heldout = join(dir, 'heldout');
    const local = join(dir, 'mix.json');
    writeFileSync(local, '{"mix": 1}');
    const manifest = await prefetchHeldout(
      [
        { name: 'HELDOUT', url: `${server.url}/heldout/rows.jsonl`, token: 'heldout-secret-token' },
        { name: 'MIX', url: pathToFileURL(local).href, token: null },
      ],
      { directory: heldout, rules: { ...LOCAL, allowFile: true }, maxBytes: 1 << 20, signal: AbortSignal.timeout(10_000) },
    );
    expect(server.requests.find((r) => r.path === '/heldout/rows.jsonl')?.headers.authorization).toBe('Bearer heldout-secret-token');
    const rows = '{"x": 1}\n{"x": 2}\n';
    expect(manifest).toEqual({
      HELDOUT: { env: 'HELDOUT_PATH', path: join(heldout, 'HELDOUT', 'rows.jsonl'), bytes: rows.length, sha256: createHash('sha256').update(rows).digest('hex') },
      MIX: { env: 'MIX_PATH', path: join(heldout, 'MIX', 'mix.json'), bytes: 10, sha256: createHash('sha256').update('{"mix": 1}').digest('hex') },
    });
    expect(JSON.parse(readFileSync(join(heldout, 'manifest.json'), 'utf8'))).toEqual(manifest);
    expect(readFileSync(join(heldout, 'manifest.json'), 'utf8')).not.toMatch(/127\.0\.0\.1|token|file:/);
  });

  it('ends the replay in error when a held-out source fails (wrong token, file:// not allowed)', async () => {
    const rules = { ...LOCAL, allowFile: false };
    const options = { directory: join(dir, 'heldout-bad'), rules, maxBytes: 1 << 20, signal: AbortSignal.timeout(10_000) };
    const wrongToken = await replayFailureOf(prefetchHeldout([{ name: 'HELDOUT', url: `${server.url}/heldout/rows.jsonl`, token: 'wrong' }], options));
    expect(wrongToken).toMatchObject({ status: VerificationStatus.Error, note: 'A held-out source could not be prefetched: the server answered 401.' });
    const file = await replayFailureOf(prefetchHeldout([{ name: 'MIX', url: 'file:///etc/hostname', token: null }], options));
    expect(file).toMatchObject({ status: VerificationStatus.Error, note: expect.stringMatching(/file:\/\/ sources are not allowed/) });
  });

  describe('a slow server holds no runner slot for the task’s whole budget (RUNNER_DOWNLOAD_TIMEOUT_SECONDS, RUNNER_DOWNLOAD_MIN_BYTES_PER_SECOND)', () => {
    // The replay's deadline (10 s here) is far off: only the download's own bounds stop these.
    const paced = (pace: DownloadPace) => ({ rules: { ...LOCAL, pace } });

    it('stops an artifact that trickles below the minimum throughput, as error naming the stall', async () => {
      const failure = await replayFailureOf(download('/trickle', { sizeBytes: 1 << 20, ...paced({ timeoutMs: 60_000, minBytesPerSecond: 1000, windowMs: 300 }) }));
      expect(failure).toMatchObject({
        status: VerificationStatus.Error,
        note: expect.stringMatching(/^Artifact download refused or failed: the download stalled: \d+ bytes\/s over the last 0\.3 s, below this validator's minimum of 1000 bytes\/s\.$/),
      });
      await server.closedBeforeEnd('/trickle');
    });

    it('stops a server that never answers by the same minimum', async () => {
      const failure = await replayFailureOf(download('/silent', paced({ timeoutMs: 60_000, minBytesPerSecond: 1, windowMs: 300 })));
      expect(failure).toMatchObject({ status: VerificationStatus.Error, note: expect.stringMatching(/the download stalled: 0 bytes\/s/) });
    });

    it('stops a download that outlasts its own timeout, as error', async () => {
      const failure = await replayFailureOf(download('/trickle', { sizeBytes: 1 << 20, ...paced({ timeoutMs: 400, minBytesPerSecond: 0 }) }));
      expect(failure).toMatchObject({ status: VerificationStatus.Error, note: 'Artifact download refused or failed: the download took longer than 0.4 s, this validator\'s limit.' });
    });

    it('bounds a held-out prefetch the same way', async () => {
      const options = { directory: join(dir, 'heldout-slow'), rules: { ...LOCAL, allowFile: false, pace: { timeoutMs: 60_000, minBytesPerSecond: 1000, windowMs: 300 } }, maxBytes: 1 << 20, signal: AbortSignal.timeout(10_000) };
      const failure = await replayFailureOf(prefetchHeldout([{ name: 'HELDOUT', url: `${server.url}/heldout/slow.jsonl`, token: null }], options));
      expect(failure).toMatchObject({ status: VerificationStatus.Error, note: expect.stringMatching(/^A held-out source could not be prefetched: the download stalled: /) });
    });

    it('lets a download at a good pace through', async () => {
      const artifact = await download('/model.bin', paced({ timeoutMs: 60_000, minBytesPerSecond: 1000, windowMs: 300 }));
      expect(artifact).toMatchObject({ bytes: BODY.length, sha256: SHA });
    });
  });
});
