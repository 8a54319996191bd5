import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { lookup } from 'node:dns/promises';
import { IncomingMessage, request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { Transform, TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { addressAllowed, classifyAddress } from './address-policy';

/**
 * Why a download stopped. `source` problems are the URL's or the server's (a wrong scheme, a private host, a
 * redirect, a 4xx, more or fewer bytes than declared); `network` problems are on the way (DNS, connection,
 * 5xx); `timeout` is the replay's deadline, or the download's own bound (`download_timeout`: longer than
 * `RUNNER_DOWNLOAD_TIMEOUT_SECONDS`; `stalled`: slower than `RUNNER_DOWNLOAD_MIN_BYTES_PER_SECOND`), which is the
 * validator's side: a slow server must not hold a runner slot for a task's whole time budget.
 */
export type DownloadProblem =
  | { blame: 'source'; code: 'scheme' | 'address' | 'redirect' | 'status' | 'too_large' | 'size_mismatch' | 'not_found'; detail: string }
  | { blame: 'network'; code: 'dns' | 'connection' | 'status'; detail: string }
  | { blame: 'timeout'; code: 'timeout' | 'download_timeout' | 'stalled'; detail: string };

export class DownloadError extends Error {
  constructor(readonly problem: DownloadProblem) {
    super(problem.detail);
    this.name = 'DownloadError';
  }
}

export interface DownloadRules {
  /** `http://` besides `https://`. */
  allowInsecureHttp: boolean;
  /** Hosts resolving to non-public addresses. */
  allowPrivateAddresses: boolean;
  /** `file://` sources (read on the host). */
  allowFile: boolean;
  /** The download's own bounds besides the replay's deadline; unset: only the deadline. */
  pace?: DownloadPace;
}

/** How long one download may take, and how slowly it may come. */
export interface DownloadPace {
  /** The whole download (connection, headers, body). */
  timeoutMs: number;
  /** Fewer bytes than this per second over a window stops it; 0: no minimum. */
  minBytesPerSecond: number;
  /** The window the throughput is measured over (default 10 s). */
  windowMs?: number;
}

const DEFAULT_PACE_WINDOW_MS = 10_000;

export interface DownloadRequest {
  url: string;
  destination: string;
  /** The download stops as soon as more bytes than this arrive. */
  maxBytes: number;
  /** Extra request headers (e.g. a Bearer token); never logged. */
  headers?: Record<string, string>;
  signal: AbortSignal;
  rules: DownloadRules;
}

export interface DownloadResult {
  bytes: number;
  sha256: string;
  durationMs: number;
}

/**
 * Streams one URL to a file while hashing it. HTTP(S): the host is resolved once, every address is
 * checked, and the connection goes to the checked address (no second lookup a DNS rebinding could
 * answer differently); redirects are refused, not followed.
 */
export async function safeDownload(req: DownloadRequest): Promise<DownloadResult> {
  const started = Date.now();
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    throw new DownloadError({ blame: 'source', code: 'scheme', detail: 'the URL does not parse' });
  }
  const counter = new CountingHash(req.maxBytes);
  const pace = new PaceWatch(counter, req.rules.pace);
  const signal = AbortSignal.any([req.signal, pace.signal]);
  try {
    const source = url.protocol === 'file:' ? openFile(url, req.rules) : await openHttp(url, { ...req, signal });
    await pipeline(source, counter, createWriteStream(req.destination), { signal });
  } catch (error) {
    throw asDownloadError(error, req.signal, counter, pace);
  } finally {
    pace.stop();
  }
  return { bytes: counter.bytes, sha256: counter.digest(), durationMs: Date.now() - started };
}

function openFile(url: URL, rules: DownloadRules): NodeJS.ReadableStream {
  if (!rules.allowFile) throw new DownloadError({ blame: 'source', code: 'scheme', detail: 'file:// sources are not allowed here' });
  return createReadStream(fileURLToPath(url));
}

async function openHttp(url: URL, req: DownloadRequest): Promise<IncomingMessage> {
  const secure = url.protocol === 'https:';
  if (!secure && !(url.protocol === 'http:' && req.rules.allowInsecureHttp)) {
    throw new DownloadError({ blame: 'source', code: 'scheme', detail: `${url.protocol}// URLs are not allowed; only https://` });
  }
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const resolved = await resolveChecked(hostname, req.rules.allowPrivateAddresses, req.signal);
  // Only the checked addresses, all of them: Node's happy-eyeballs may try each family in turn.
  const pinned: LookupFunction = (_host, options, callback) => {
    if (options.all) callback(null, resolved);
    else callback(null, resolved[0].address, resolved[0].family);
  };
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const request = (secure ? httpsRequest : httpRequest)(url, { method: 'GET', headers: req.headers, lookup: pinned, agent: false, signal: req.signal });
    request.once('response', resolve);
    request.once('error', reject);
    request.end();
  });
  const status = response.statusCode ?? 0;
  if (status >= 300 && status < 400) {
    response.destroy();
    throw new DownloadError({ blame: 'source', code: 'redirect', detail: `the server answered ${status} (a redirect); redirects are not followed` });
  }
  if (status !== 200) {
    response.destroy();
    throw status >= 500
      ? new DownloadError({ blame: 'network', code: 'status', detail: `the server answered ${status}` })
      : new DownloadError({ blame: 'source', code: 'status', detail: `the server answered ${status}` });
  }
  const declared = Number(response.headers['content-length']);
  if (Number.isFinite(declared) && declared > req.maxBytes) {
    response.destroy();
    throw new DownloadError({ blame: 'source', code: 'too_large', detail: `the server announces ${declared} bytes, more than the ${req.maxBytes} allowed` });
  }
  return response;
}

/** Every address of the host, each checked (one refused address refuses the host). */
async function resolveChecked(hostname: string, allowPrivate: boolean, signal: AbortSignal): Promise<{ address: string; family: number }[]> {
  let addresses: { address: string; family: number }[];
  try {
    addresses = await abortable(lookup(hostname, { all: true, verbatim: true }), signal);
  } catch (error) {
    if (signal.aborted) throw error;
    throw new DownloadError({ blame: 'network', code: 'dns', detail: `cannot resolve the host (${(error as NodeJS.ErrnoException).code ?? 'lookup failed'})` });
  }
  const refused = addresses.find((entry) => !addressAllowed(entry.address, allowPrivate));
  if (refused || addresses.length === 0) {
    const kind = refused ? classifyAddress(refused.address) : 'no address';
    throw new DownloadError({ blame: 'source', code: 'address', detail: `the host resolves to a ${kind} address; only public addresses are allowed` });
  }
  return addresses;
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function asDownloadError(error: unknown, signal: AbortSignal, counter: CountingHash, pace: PaceWatch): DownloadError {
  if (error instanceof DownloadError) return error;
  if (counter.overflowed) {
    return new DownloadError({ blame: 'source', code: 'too_large', detail: `the download went past ${counter.maxBytes} bytes and was stopped` });
  }
  if (pace.problem !== null) return new DownloadError(pace.problem);
  if (signal.aborted) return new DownloadError({ blame: 'timeout', code: 'timeout', detail: 'the time budget ran out during the download' });
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new DownloadError({ blame: 'source', code: 'not_found', detail: 'the source file does not exist' });
  return new DownloadError({ blame: 'network', code: 'connection', detail: `the download failed (${code ?? (error as Error).message})` });
}

/**
 * The download's own bounds: aborts `signal` when the whole download outlasts `timeoutMs`, or when fewer than
 * `minBytesPerSecond` came over a window (a server that trickles, or never answers at all); `problem` says which.
 */
class PaceWatch {
  readonly signal: AbortSignal;
  problem: DownloadProblem | null = null;
  private readonly controller = new AbortController();
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(counter: CountingHash, pace: DownloadPace | undefined) {
    this.signal = this.controller.signal;
    if (pace === undefined) return;
    this.timers.push(setTimeout(() => this.fail({ blame: 'timeout', code: 'download_timeout', detail: `the download took longer than ${seconds(pace.timeoutMs)} s, this validator's limit` }), pace.timeoutMs));
    if (pace.minBytesPerSecond <= 0) return;
    const windowMs = pace.windowMs ?? DEFAULT_PACE_WINDOW_MS;
    let seen = 0;
    const check = setInterval(() => {
      const perSecond = ((counter.bytes - seen) * 1000) / windowMs;
      seen = counter.bytes;
      if (perSecond < pace.minBytesPerSecond) {
        this.fail({
          blame: 'timeout',
          code: 'stalled',
          detail: `the download stalled: ${Math.floor(perSecond)} bytes/s over the last ${seconds(windowMs)} s, below this validator's minimum of ${pace.minBytesPerSecond} bytes/s`,
        });
      }
    }, windowMs);
    this.timers.push(check);
  }

  stop(): void {
    for (const timer of this.timers) clearTimeout(timer);
  }

  private fail(problem: DownloadProblem): void {
    if (this.problem !== null) return;
    this.problem = problem;
    this.stop();
    this.controller.abort(new DownloadError(problem));
  }
}

function seconds(ms: number): string {
  return String(Math.round(ms) / 1000);
}

/** Counts and hashes what passes; fails the stream the moment the byte limit is crossed. */
class CountingHash extends Transform {
  bytes = 0;
  overflowed = false;
  private readonly hash = createHash('sha256');

  constructor(readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) {
      this.overflowed = true;
      callback(new DownloadError({ blame: 'source', code: 'too_large', detail: `the download went past ${this.maxBytes} bytes and was stopped` }));
      return;
    }
    this.hash.update(chunk);
    callback(null, chunk);
  }

  digest(): string {
    return this.hash.digest('hex');
  }
}

/** The last path segment of a URL reduced to a safe file name, or `fallback` when nothing is left. */
export function urlFileName(url: string, fallback: string): string {
  let segment = '';
  try {
    segment = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
  } catch {
    segment = '';
  }
  const safe = segment.replace(/[^A-Za-z0-9._-]/g, '_').replace(/^[.]+/, '').slice(0, 200);
  return safe === '' ? fallback : safe;
}
