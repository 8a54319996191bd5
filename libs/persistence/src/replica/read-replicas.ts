import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isDatabaseUnavailable } from '../database/connection-errors';
import { EntityClassOrSchema, postgresOptions } from '../database/data-source-options';
import { runPreparedUnnamed } from '../database/sql-rows';

/** How long a replica that stopped answering is left out before it is tried again. */
export const REPLICA_RETRY_MS = 5000;

/** Where a routed read ran, counted for /metrics and tests. */
export type ReadTarget = 'replica' | 'primary';

export interface ReadReplicasOptions {
  /** `*_DATABASE_REPLICA_URLS`: Postgres URLs of streaming replicas of the primary; empty sends every read to the primary. */
  urls: string[];
  entities: EntityClassOrSchema[];
  applicationName?: string;
  /** Connections per replica (default 5). */
  poolSize?: number;
  preparedStatements?: boolean;
}

interface Replica {
  url: string;
  dataSource: DataSource;
  /** Until when (epoch ms) it is skipped after failing to answer. */
  skippedUntil: number;
  /** The connection being opened, shared by the reads that wait for it. */
  opening: Promise<void> | null;
}

/**
 * The public reads that tolerate replication lag (DECISIONS §19: task lists, dashboard, best history,
 * leaderboard, miner pages) go through `read`: to a replica, round-robin; a replica that does not
 * answer is skipped for REPLICA_RETRY_MS and the read tried on the next; with none left, on the
 * primary. Everything else (writes, signed reads of the signer's own state, anything inside a
 * transaction) keeps using the primary's DataSource directly.
 */
export class ReadReplicas {
  readonly #replicas: Replica[];
  readonly #counts: Record<ReadTarget, number> = { replica: 0, primary: 0 };
  readonly #logger = new Logger('ReadReplicas');
  #next = 0;

  constructor(
    private readonly primary: DataSource,
    options: ReadReplicasOptions,
  ) {
    this.#replicas = options.urls.map((url) => {
      const dataSource = new DataSource(
        postgresOptions({
          url,
          entities: options.entities,
          migrations: [],
          applicationName: options.applicationName === undefined ? undefined : `${options.applicationName}:replica`,
          poolSize: options.poolSize ?? 5,
        }),
      );
      if (options.preparedStatements === false) runPreparedUnnamed(dataSource);
      return { url, dataSource, skippedUntil: 0, opening: null };
    });
  }

  /** How many routed reads ran where, since boot. */
  get counts(): Readonly<Record<ReadTarget, number>> {
    return { ...this.#counts };
  }

  /** Whether any replica is configured. */
  get configured(): boolean {
    return this.#replicas.length > 0;
  }

  /** Runs `work` on a replica that answers, else on the primary. `work` must only read. */
  async read<T>(work: (dataSource: DataSource) => Promise<T>): Promise<T> {
    const now = Date.now();
    for (let tried = 0; tried < this.#replicas.length; tried += 1) {
      const replica = this.#replicas[(this.#next + tried) % this.#replicas.length];
      if (replica.skippedUntil > now) continue;
      try {
        await opened(replica);
        const result = await work(replica.dataSource);
        this.#next = (this.#next + tried + 1) % this.#replicas.length;
        this.#counts.replica += 1;
        return result;
      } catch (error) {
        if (!isDatabaseUnavailable(error)) throw error;
        replica.skippedUntil = Date.now() + REPLICA_RETRY_MS;
        this.#logger.warn(`replica ${redacted(replica.url)} does not answer (${(error as Error).message}); reads skip it for ${REPLICA_RETRY_MS} ms`);
      }
    }
    this.#counts.primary += 1;
    return work(this.primary);
  }

  async close(): Promise<void> {
    await Promise.all(this.#replicas.map((replica) => (replica.dataSource.isInitialized ? replica.dataSource.destroy().catch(() => undefined) : undefined)));
  }
}

async function opened(replica: Replica): Promise<void> {
  if (replica.dataSource.isInitialized) return;
  replica.opening ??= replica.dataSource
    .initialize()
    .then(() => undefined)
    .finally(() => {
      replica.opening = null;
    });
  await replica.opening;
}

function redacted(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@');
}
