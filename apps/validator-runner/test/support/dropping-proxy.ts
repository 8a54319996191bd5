import { createServer, request, Server } from 'node:http';
import { AddressInfo } from 'node:net';

/**
 * A pass-through HTTP proxy to the coordinator that, for the first request matching `drop`, forwards it,
 * waits for the coordinator's whole answer, and then cuts the client's connection without answering:
 * the request took effect, the client saw a network failure.
 */
export class DroppingProxy {
  readonly seen: string[] = [];
  private dropped = false;
  private readonly server: Server;
  url = '';

  constructor(
    private readonly upstream: string,
    private readonly drop: (method: string, path: string) => boolean,
  ) {
    this.server = createServer((req, res) => {
      const method = req.method ?? 'GET';
      const path = req.url ?? '/';
      this.seen.push(`${method} ${path}`);
      const target = new URL(path, this.upstream);
      const forward = request(target, { method, headers: { ...req.headers, host: target.host } }, (answer) => {
        if (!this.dropped && this.drop(method, path)) {
          this.dropped = true;
          answer.resume();
          answer.once('end', () => req.socket.destroy());
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      forward.once('error', () => res.destroy());
      req.pipe(forward);
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
