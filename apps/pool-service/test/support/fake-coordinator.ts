import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A coordinator that serves whatever snapshot the test sets (or 503 when null), over real HTTP. */
export class FakeCoordinator {
  snapshot: object | null = null;
  private server: Server | null = null;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      if (req.url !== '/api/v1/reward-snapshot' || this.snapshot === null) {
        res.writeHead(503).end('{"detail":"down"}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(this.snapshot));
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
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
