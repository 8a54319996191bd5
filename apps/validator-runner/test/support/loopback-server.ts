import { Server } from 'node:http';
import { AddressInfo } from 'node:net';

/** An HTTP server of a test on a free loopback port; `url` is its address once started. */
export abstract class LoopbackServer {
  url = '';
  protected abstract readonly server: Server;

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
