import { AddressInfo, createServer, Server, Socket } from 'node:net';

/** What the server needs of PGlite: its one backend session, fed raw protocol messages. */
export interface ProtocolSession {
  execProtocolRawStream(message: Uint8Array, options: { onRawData: (data: Uint8Array) => void }): Promise<void>;
  runExclusive<T>(fn: () => Promise<T>): Promise<T>;
}

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const SYNC = Buffer.from([0x53, 0, 0, 0, 4]);

/** FIFO ownership of the one session: a connection holds it from its first message to an idle ReadyForQuery. */
class SessionLock {
  private held = false;
  private readonly waiting: (() => void)[] = [];

  acquire(): Promise<void> {
    if (!this.held) {
      this.held = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    const next = this.waiting.shift();
    if (next === undefined) this.held = false;
    else next();
  }
}

/** The transaction status of the last ReadyForQuery ('I' idle, 'T' in a transaction, 'E' failed one) in `out`. */
export function lastReadyStatus(out: Buffer): string | null {
  let status: string | null = null;
  for (let at = 0; at + 5 <= out.length; at += 1 + out.readInt32BE(at + 1)) {
    if (out[at] === 0x5a && at + 6 <= out.length) status = String.fromCharCode(out[at + 5]);
  }
  return status;
}

function queryMessage(sql: string): Buffer {
  const text = Buffer.from(`${sql}\0`);
  const header = Buffer.alloc(5);
  header.write('Q', 0);
  header.writeInt32BE(4 + text.length, 1);
  return Buffer.concat([header, text]);
}

/**
 * One client socket. Its messages run in order, and from its first message until the session is idle
 * again after a Sync or a simple query (no open transaction, no half-sent extended protocol), it owns
 * the session: no other connection's Parse, Bind, error or transaction can land in between.
 */
class Connection {
  private buffer = Buffer.alloc(0);
  private started = false;
  private holding = false;
  private closed = false;
  private work: Promise<void> = Promise.resolve();
  /** Settles once the socket is closed and the session handed back. */
  readonly finished: Promise<void>;

  constructor(
    private readonly socket: Socket,
    private readonly session: ProtocolSession,
    private readonly lock: SessionLock,
  ) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.then(() => this.drain());
    });
    socket.on('error', () => socket.destroy());
    this.finished = new Promise((resolve) => {
      socket.once('close', () => {
        this.closed = true;
        this.then(() => this.abandon());
        void this.work.then(resolve);
      });
    });
  }

  /** Queues a step after this connection's earlier ones; a step that fails closes the connection. */
  private then(step: () => Promise<void>): void {
    this.work = this.work.then(step).catch(() => {
      this.socket.destroy();
      return this.abandon().catch(() => undefined);
    });
  }

  private async drain(): Promise<void> {
    for (let message = this.next(); message !== null && !this.closed; message = this.next()) {
      await this.handle(message);
    }
  }

  /** The next complete message, or null: untyped (length first) before startup, typed after. */
  private next(): Buffer | null {
    const typed = this.started ? 1 : 0;
    if (this.buffer.length < typed + 4) return null;
    const length = typed + this.buffer.readInt32BE(typed);
    if (this.buffer.length < length) return null;
    const message = this.buffer.subarray(0, length);
    this.buffer = this.buffer.subarray(length);
    return message;
  }

  private async handle(message: Buffer): Promise<void> {
    if (!this.started) {
      const code = message.length >= 8 ? message.readInt32BE(4) : 0;
      if (code === SSL_REQUEST || code === GSSENC_REQUEST) return void this.socket.write('N');
      if (code === CANCEL_REQUEST) return void this.socket.end();
      this.started = true;
      return this.run(message, true);
    }
    const type = String.fromCharCode(message[0]);
    if (type === 'X') return void this.socket.end();
    // A unit of work ends at a Sync, a simple query, a function call or the end of a COPY: only then can the
    // session be handed on (and only when it is idle after it, outside a transaction).
    return this.run(message, 'SQFcf'.includes(type));
  }

  private async run(message: Buffer, endsUnit: boolean): Promise<void> {
    if (!this.holding) {
      await this.lock.acquire();
      this.holding = true;
      if (this.closed) return this.abandon();
    }
    const out = await this.exec(message, (data) => {
      if (!this.closed) this.socket.write(data);
    });
    if (endsUnit && lastReadyStatus(out) === 'I') this.hand();
  }

  private async exec(message: Uint8Array, write: (data: Uint8Array) => void): Promise<Buffer> {
    const chunks: Buffer[] = [];
    await this.session.runExclusive(() =>
      this.session.execProtocolRawStream(message, {
        onRawData: (data) => {
          chunks.push(Buffer.from(data));
          write(data);
        },
      }),
    );
    return Buffer.concat(chunks);
  }

  /** A client gone mid-unit: end its extended protocol and roll its transaction back before handing on. */
  private async abandon(): Promise<void> {
    if (!this.holding) return;
    try {
      const status = lastReadyStatus(await this.exec(SYNC, () => undefined));
      if (status !== 'I') await this.exec(queryMessage('ROLLBACK'), () => undefined);
    } finally {
      this.hand();
    }
  }

  private hand(): void {
    this.holding = false;
    this.lock.release();
  }

  close(): void {
    this.socket.destroy();
  }
}

/**
 * A Postgres wire-protocol server on loopback in front of PGlite's single session. PGlite's own socket
 * server interleaves the messages of its connections on that session, so one connection's Bind could
 * meet another's Parse, an error in one discarded the other's messages up to a Sync, and a transaction
 * could begin between another connection's Parse and Bind: wrong answers under load. Here a connection
 * owns the session for a whole unit of work (see Connection), like a pool of one with a queue.
 */
export class SessionServer {
  private readonly connections = new Set<Connection>();
  private readonly lock = new SessionLock();

  private readonly server: Server;

  private constructor(session: ProtocolSession, maxConnections: number) {
    this.server = createServer((socket) => this.accept(socket, session));
    this.server.maxConnections = maxConnections;
  }

  static async listen(session: ProtocolSession, maxConnections: number): Promise<{ server: SessionServer; port: number }> {
    const owner = new SessionServer(session, maxConnections);
    const server = owner.server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    // Listening on a TCP port, the address is always an AddressInfo.
    return { server: owner, port: (server.address() as AddressInfo).port };
  }

  private accept(socket: Socket, session: ProtocolSession): void {
    const connection = new Connection(socket, session, this.lock);
    this.connections.add(connection);
    void connection.finished.then(() => this.connections.delete(connection));
  }

  /** Stops accepting, closes every client and waits until each has handed the session back. */
  async stop(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    const pending = [...this.connections].map((connection) => {
      connection.close();
      return connection.finished;
    });
    await Promise.allSettled(pending);
    await closed;
  }
}
