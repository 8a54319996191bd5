import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A coordinator stand-in for the pool: it serves whatever snapshot the test sets (or 503 when null), over real HTTP. While
 * `hold()` is on it answers no snapshot request: a rollover waits on it, active with nothing stored.
 */
export class FakeCoordinator {
  snapshot: object | null = null;
  private server: Server | null = null;
  private holding = false;
  private readonly held: ServerResponse[] = [];
  url = '';

  /** Snapshot requests received since `hold()` and not answered yet (including those whose caller went away). */
  get heldRequests(): number {
    return this.held.length;
  }

  /** From now on, snapshot requests get no answer until `answer()`. */
  hold(): void {
    this.holding = true;
  }

  /** Answers the held requests still connected and every later one. */
  answer(): void {
    this.holding = false;
    for (const res of this.held.splice(0)) if (!res.destroyed) this.serve(res);
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      if (req.url !== '/api/v1/reward-snapshot') res.writeHead(503).end('{"detail":"down"}');
      else if (this.holding) this.held.push(res);
      else this.serve(res);
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    this.answer();
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private serve(res: ServerResponse): void {
    if (this.snapshot === null) res.writeHead(503).end('{"detail":"down"}');
    else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(this.snapshot));
  }
}

/** A reward snapshot with one competition scoring the given miners. */
export function snapshotOf(miners: [string, number][], local: Record<string, unknown> = { enabled: false }): object {
  return {
    generated_at: new Date().toISOString(),
    score_ema_days: 10,
    competition_count: 1,
    reward_policy: { version: 2, pools: [], local_competition: local },
    competitions: [
      {
        competition_id: 'task-1',
        slug: 'alpha',
        title: 'Alpha',
        competition_mode: 'standard',
        weight: 1,
        target_pool_id: 'main',
        reward_scope: 'competition_only',
        miners: miners.map(([miner_hotkey, score]) => ({ miner_hotkey, score })),
      },
    ],
  };
}
