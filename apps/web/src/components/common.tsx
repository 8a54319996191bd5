import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { exactTime, formatAlpha, formatRao, relativeTime, shortHash, shortHotkey } from '../logic/format';
import type { Place } from '../logic/ranking';
import { href } from '../logic/route';

/** A hotkey shortened and linked to its miner page (coldkeys: `link={false}`), the full value on hover and in a copy button. */
export function Hotkey({ value, link = true }: { value: string | null; link?: boolean }) {
  const [copied, setCopied] = useState(false);
  if (value === null) return <span>—</span>;
  const copy = () => {
    void navigator.clipboard?.writeText(value).then(() => setCopied(true), () => setCopied(false));
  };
  return (
    <span class="hotkey">
      {link ? (
        <a href={href({ page: 'miner', hotkey: value })} class="miner-link">
          <code title={value}>{shortHotkey(value)}</code>
        </a>
      ) : (
        <code title={value}>{shortHotkey(value)}</code>
      )}
      <button type="button" class="copy" onClick={copy} aria-label={`Copy hotkey ${value}`} title="Copy the full hotkey">
        {copied ? 'copied' : 'copy'}
      </button>
    </span>
  );
}

/** An amount in α, its exact rao on hover (1 α = 10⁹ rao). */
export function Alpha({ rao }: { rao: string | null }) {
  if (rao === null) return <span>—</span>;
  return (
    <span class="alpha" title={formatRao(rao)} data-rao={rao}>
      {formatAlpha(rao)}
    </span>
  );
}

/** A rank, marked when others share it. */
export function Rank({ place }: { place: Place }) {
  return place.tied ? (
    <span class="rank tied" title={`tied for rank ${place.rank}`}>
      {place.rank} (tie)
    </span>
  ) : (
    <span class="rank">{place.rank}</span>
  );
}

/** Why a verdict went against a submission (a validator's notes), shown for `error` and `rejected`; nothing otherwise. */
export function Reason({ status, notes }: { status: string; notes: string | null }) {
  if (status !== 'error' && status !== 'rejected') return null;
  return <span class="reason">{notes && notes.trim() ? notes : 'no reason given'}</span>;
}

export function Hash({ value }: { value: string }) {
  return <code title={value}>{shortHash(value)}</code>;
}

/** A time relative to now, the exact UTC time on hover. */
export function Time({ value }: { value: string | null }) {
  if (value === null) return <span>—</span>;
  return (
    <time dateTime={value} title={exactTime(value)}>
      {relativeTime(value)}
    </time>
  );
}

export type Load<T> = { state: 'loading' } | { state: 'error'; message: string } | { state: 'ready'; data: T };

/**
 * Runs `read` on mount and on `reload()`. Reloads asked for while one runs collapse into one more run
 * after it, so a burst of events costs two reads, not one per event; the shown data stays until the next answer.
 */
export function useLoad<T>(read: () => Promise<T>, deps: unknown[]): [Load<T>, () => void] {
  const [load, setLoad] = useState<Load<T>>({ state: 'loading' });
  const running = useRef(false);
  const again = useRef(false);
  const generation = useRef(0);
  const run = useCallback(() => {
    if (running.current) {
      again.current = true;
      return;
    }
    running.current = true;
    const mine = ++generation.current;
    const settle = (next: Load<T>) => {
      // An answer for inputs since replaced is dropped, and leaves the current run alone.
      if (mine !== generation.current) return;
      setLoad(next);
      running.current = false;
      if (again.current) {
        again.current = false;
        run();
      }
    };
    read().then(
      (data) => settle({ state: 'ready', data }),
      (error: unknown) => settle({ state: 'error', message: error instanceof Error ? error.message : String(error) }),
    );
  }, deps);
  useEffect(() => {
    // New inputs (another task, another service): start over, whatever was running.
    running.current = false;
    again.current = false;
    run();
  }, [run]);
  return [load, run];
}

/** Shows a load: a status line while loading, an alert on error, else the children. */
export function Loaded<T>({ load, label, children }: { load: Load<T>; label: string; children: (data: T) => ComponentChildren }) {
  if (load.state === 'loading') return <p role="status">Loading {label}…</p>;
  if (load.state === 'error') return <p role="alert" class="error">Could not read {label}: {load.message}</p>;
  return <>{children(load.data)}</>;
}

export function Empty({ children }: { children: ComponentChildren }) {
  return <div class="empty">{children}</div>;
}

/** Subscribes to named events of an SSE stream; the browser resumes with Last-Event-ID on its own. */
export type LiveState = 'connecting' | 'live' | 'reconnecting' | 'unavailable';

export function useEvents(url: string, names: readonly string[], onEvent: (name: string, data: string) => void): LiveState {
  const [state, setState] = useState<LiveState>('connecting');
  const handler = useRef(onEvent);
  handler.current = onEvent;
  useEffect(() => {
    if (typeof EventSource === 'undefined') return undefined;
    const source = new EventSource(url);
    source.onopen = () => setState('live');
    // A network error reconnects by itself; an answer that is no event stream closes the source for good.
    source.onerror = () => setState(source.readyState === EventSource.CLOSED ? 'unavailable' : 'reconnecting');
    const listeners = names.map((name) => {
      const listener = (event: MessageEvent<string>) => handler.current(name, event.data);
      source.addEventListener(name, listener);
      return listener;
    });
    return () => {
      names.forEach((name, i) => source.removeEventListener(name, listeners[i]));
      source.close();
    };
  }, [url, names.join(',')]);
  return state;
}

const LIVE_TEXT: Record<LiveState, string> = {
  live: 'live updates on',
  connecting: 'connecting to live updates…',
  reconnecting: 'live updates interrupted, reconnecting…',
  unavailable: 'live updates unavailable: reload the page to see changes',
};

export function LiveBadge({ state }: { state: LiveState }) {
  const text = LIVE_TEXT[state];
  return (
    <p class={`live live-${state}`} role="status">
      {text}
    </p>
  );
}
