import { createServer, request, Server } from 'node:http';
import { LoopbackServer } from './loopback-server';

/**
 * A pass-through HTTP proxy to the coordinator that, for the first request matching `drop`, forwards it,
 * waits for the coordinator's whole answer, and then cuts the client's connection without answering:
 * the request took effect, the client saw a network failure.
 */
export class DroppingProxy extends LoopbackServer {
  readonly seen: string[] = [];
  private dropped = false;
  protected readonly server: Server;

  constructor(
    private readonly upstream: string,
    private readonly drop: (method: string, path: string) => boolean,
  ) {
    super();
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
}
