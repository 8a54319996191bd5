import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { setTimeout as delay } from 'node:timers/promises';
import { WaitForHttpTimeoutError } from '../errors';

export interface WaitForHttpOptions {
  /** Pause between attempts (default 100 ms); attempts are bounded by timeoutMs / intervalMs. */
  intervalMs?: number;
  /** Which status means ready (default 2xx). */
  ready?: (status: number) => boolean;
  /** Stops polling (e.g. when the server process died); the call then rejects with the signal's reason. */
  signal?: AbortSignal;
}

export interface WaitForHttpResult {
  status: number;
  attempts: number;
}

function probe(url: URL, timeoutMs: number): Promise<number> {
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    // No agent: no keep-alive socket outlives the probe.
    const req = request(url, { method: 'GET', agent: false, timeout: timeoutMs }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.once('timeout', () => req.destroy(new Error(`no response within ${timeoutMs} ms`)));
    req.once('error', reject);
    req.end();
  });
}

/** Polls `url` until it answers a ready status, for e2e tests that start a server. */
export async function waitForHttp(url: string, timeoutMs: number, options: WaitForHttpOptions = {}): Promise<WaitForHttpResult> {
  const intervalMs = options.intervalMs ?? 100;
  const ready = options.ready ?? ((status: number) => status >= 200 && status < 300);
  const maxAttempts = Math.max(1, Math.ceil(timeoutMs / intervalMs));
  const deadline = Date.now() + timeoutMs;
  const target = new URL(url);
  let lastOutcome = 'no attempt';
  let attempts = 0;
  while (attempts < maxAttempts) {
    options.signal?.throwIfAborted();
    const remaining = deadline - Date.now();
    if (remaining <= 0) break;
    attempts += 1;
    try {
      const status = await probe(target, remaining);
      if (ready(status)) return { status, attempts };
      lastOutcome = `HTTP ${status}`;
    } catch (error) {
      lastOutcome = error instanceof Error ? error.message : String(error);
    }
    await delay(Math.max(0, Math.min(intervalMs, deadline - Date.now())), undefined, { signal: options.signal });
  }
  throw new WaitForHttpTimeoutError(url, timeoutMs, attempts, lastOutcome);
}
