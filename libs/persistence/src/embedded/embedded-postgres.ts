import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { DatabaseLogger } from '../database/database-logger';
import { acquirePidLock } from './pid-lock';
import { SessionServer } from './session-server';

export interface EmbeddedPostgresOptions {
  /** Data directory, e.g. `.data/coordinator`; created when missing. */
  dataDir: string;
  logger: DatabaseLogger;
  /** Socket connections the server accepts; the pg pool must stay below it. */
  maxConnections?: number;
}

/**
 * Postgres compiled to WebAssembly (PGlite) behind a Postgres wire-protocol socket on loopback,
 * so the service reaches it with the same `pg` driver and code path as a real server. PGlite is one
 * session: the socket server (SessionServer) lends it to one connection per unit of work.
 */
export class EmbeddedPostgres {
  private constructor(
    private readonly db: { close(): Promise<void> },
    private readonly server: SessionServer,
    private readonly releaseLock: () => Promise<void>,
    /** `postgres://postgres@127.0.0.1:<port>/postgres` */
    readonly url: string,
    readonly dataDir: string,
    readonly startupMs: number,
  ) {}

  static async start(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
    const startedAt = Date.now();
    const dataDir = path.resolve(options.dataDir);
    await mkdir(path.dirname(dataDir), { recursive: true });
    const releaseLock = await acquirePidLock(`${dataDir}.pid`, dataDir);
    try {
      // Loaded on demand: services given a Postgres URL never pay for the WebAssembly module.
      const { PGlite } = await import('@electric-sql/pglite');
      const db = await PGlite.create({ dataDir });
      let listening: { server: SessionServer; port: number };
      try {
        listening = await SessionServer.listen(db, options.maxConnections ?? 32);
      } catch (error) {
        await db.close();
        throw error;
      }
      const embedded = new EmbeddedPostgres(
        db,
        listening.server,
        releaseLock,
        `postgres://postgres@127.0.0.1:${listening.port}/postgres`,
        dataDir,
        Date.now() - startedAt,
      );
      options.logger.log(`Embedded Postgres (PGlite) on ${dataDir} ready in ${embedded.startupMs} ms`);
      return embedded;
    } catch (error) {
      await releaseLock();
      throw error;
    }
  }

  /** Closes client sockets, then shuts PGlite down so its data directory is consistent on disk. */
  async stop(): Promise<void> {
    try {
      await this.server.stop();
      await this.db.close();
    } finally {
      await this.releaseLock();
    }
  }
}
