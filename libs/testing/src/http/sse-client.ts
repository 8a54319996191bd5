import { request, type IncomingMessage } from 'node:http';
import { parseSseFrame, takeSseFrames } from '@rcs/contracts';

/** One Server-Sent Event as a client sees it. */
export interface SseEvent {
  id: string;
  event: string;
  data: unknown;
}

/** No event arrived within the wait. */
export class SseTimeoutError extends Error {
  constructor(what: string, ms: number) {
    super(`No ${what} within ${ms} ms`);
    this.name = 'SseTimeoutError';
  }
}

/** A real HTTP client of a `text/event-stream` route: events in arrival order, comments counted. */
export class SseClient {
  private readonly events: SseEvent[] = [];
  private waiter: (() => void) | null = null;
  private text = '';
  comments = 0;
  ended = false;

  private constructor(
    readonly response: IncomingMessage,
    private readonly abort: () => void,
  ) {
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => {
      const { frames, rest } = takeSseFrames(this.text + chunk);
      this.text = rest;
      for (const block of frames) this.parse(block);
      this.wake();
    });
    const finish = () => {
      this.ended = true;
      this.wake();
    };
    response.on('end', finish);
    response.on('close', finish);
    response.on('error', finish);
  }

  /** Opens the stream; resolves with the response head (any status). */
  static connect(url: string, headers: Record<string, string> = {}): Promise<SseClient> {
    return new Promise((resolve, reject) => {
      const req = request(url, { headers: { accept: 'text/event-stream', ...headers } }, (response) => resolve(new SseClient(response, () => req.destroy())));
      req.on('error', reject);
      req.end();
    });
  }

  private parse(block: string): void {
    const frame = parseSseFrame(block);
    this.comments += frame.comments;
    if (frame.data !== null) this.events.push({ id: frame.id, event: frame.event, data: JSON.parse(frame.data) as unknown });
  }

  private wake(): void {
    const waiter = this.waiter;
    this.waiter = null;
    waiter?.();
  }

  private async waitFor(what: string, ready: () => boolean, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!ready()) {
      if (this.ended) throw new SseTimeoutError(`${what} (the stream ended)`, timeoutMs);
      const left = deadline - Date.now();
      if (left <= 0) throw new SseTimeoutError(what, timeoutMs);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiter = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  /** The next `count` events (waits for them). */
  async take(count: number, timeoutMs = 10_000): Promise<SseEvent[]> {
    await this.waitFor(`${count} event(s)`, () => this.events.length >= count, timeoutMs);
    return this.events.splice(0, count);
  }

  /** Waits until `count` comment lines (heartbeats) have arrived. */
  async comment(count: number, timeoutMs = 10_000): Promise<void> {
    await this.waitFor(`${count} comment(s)`, () => this.comments >= count, timeoutMs);
  }

  /** Events received and not taken yet. */
  get pending(): number {
    return this.events.length;
  }

  /** Waits for the server to end the stream. */
  async end(timeoutMs = 10_000): Promise<void> {
    await this.waitFor('end of stream', () => this.ended, timeoutMs);
  }

  /** Stops reading: once its own buffer is full the socket takes nothing more, as a client that stopped consuming. */
  pause(): void {
    this.response.pause();
  }

  resume(): void {
    this.response.resume();
  }

  close(): void {
    this.abort();
  }
}
