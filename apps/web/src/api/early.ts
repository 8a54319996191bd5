import { readJson } from './http';

/**
 * What index.html's inline script started before the app's script arrived: config.json, and on the
 * competitions page its dashboard read, sent as soon as config.json names the coordinator.
 */
export interface EarlyReads {
  /** config.json's body, or why it could not be read. */
  config: Promise<unknown>;
  /** The dashboard GET already sent (null when the page opened elsewhere or config.json was unusable). */
  dashboard: Promise<{ url: string; response: Promise<Response> } | null>;
}

declare global {
  interface Window {
    rcsEarly?: EarlyReads;
  }
}

/** config.json's body: the early read's, else fetched now. */
export function readConfig(): Promise<unknown> {
  return (
    window.rcsEarly?.config ??
    fetch('config.json').then((response) => {
      if (!response.ok) throw new TypeError(`config.json answered HTTP ${response.status}`);
      return response.json() as Promise<unknown>;
    })
  );
}

/**
 * The early dashboard read when it went to `url`, handed out once (every later read is a fresh GET);
 * null when there is none to take.
 */
export async function takeEarlyJson<T>(url: string): Promise<T | null> {
  const early = window.rcsEarly;
  if (!early) return null;
  const pending = early.dashboard;
  early.dashboard = Promise.resolve(null);
  const sent = await pending;
  if (!sent || sent.url !== url) return null;
  return readJson<T>(url, sent.response);
}
