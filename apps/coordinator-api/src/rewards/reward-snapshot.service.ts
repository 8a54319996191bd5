import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CoordinatorConfig } from '../config/config';
import { COORDINATOR_CONFIG } from '../config/config.module';
import { RewardSnapshotEntity } from './entities/reward-snapshot.entity';
import { RewardPolicyService } from './reward-policy.service';
import { buildRewardSnapshot } from './reward-snapshot.builder';
import { RewardSnapshotRepository } from './reward-snapshot.repository';
import { JsonAnswer, textAnswer } from '../common/json-answer';
import { ReadCoalescer } from '../common/read-coalescer';

import type { SnapshotStaleness } from '../jobs/job-results';

/** The cached snapshot as served: its JSON and when it was generated (ISO, as in the body). */
export interface ServedSnapshot {
  generatedAt: string;
  body: string;
}

/** The stored snapshot held in memory: its bytes, entity tag and gzip form, for one row version. */
export interface SnapshotAnswer extends JsonAnswer {
  generatedAt: string;
  gzip: Buffer;
}

/** The reward snapshot cache (DECISIONS.md §7): rebuilt by the rewards queue, served as stored. */
@Injectable()
export class RewardSnapshotService {
  private readonly logger = new Logger('RewardSnapshot');
  private firstBuild: Promise<ServedSnapshot> | null = null;
  private held: { version: string; answer: SnapshotAnswer } | null = null;
  private readonly reads = new ReadCoalescer<SnapshotAnswer>();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(COORDINATOR_CONFIG) private readonly config: CoordinatorConfig,
    private readonly policies: RewardPolicyService,
    private readonly snapshots: RewardSnapshotRepository,
  ) {}

  /**
   * Builds from the current data and stores it; answers the stored snapshot (a later concurrent build
   * may have won). The recorded changes the build read are cleared only when it is the one stored.
   */
  async rebuild(): Promise<ServedSnapshot> {
    const built = await buildRewardSnapshot(this.dataSource, this.snapshots, (manager) => this.policies.current(manager), { scoreEmaDays: this.config.scoreEmaDays });
    const stored = await this.dataSource.transaction(async (manager) => {
      const row = await this.snapshots.storeSnapshot(manager, built.generatedAt, built.body);
      if (row.generatedAt.getTime() === built.generatedAt.getTime()) {
        await this.snapshots.keepInHistory(manager, { sha256: snapshotSha256(row.body), generatedAt: row.generatedAt, body: row.body });
        await this.snapshots.clearSnapshotChanges(manager, built.changes);
      }
      return row;
    });
    await this.pruneHistory();
    return served(stored);
  }

  /**
   * Prunes the snapshots replaced more than SNAPSHOT_HISTORY_DAYS ago, never one an epoch still holding
   * unclaimed value names (DECISIONS §16): with POOL_URL set it first asks the pool which those are
   * (`GET /claims/retained-snapshots`) and, when the pool cannot say, prunes nothing this time.
   */
  async pruneHistory(): Promise<number> {
    const manager = this.dataSource.manager;
    const days = this.config.snapshotHistoryDays;
    if (!(await this.snapshots.historyDue(manager, days))) return 0;
    let keep: string[] = [];
    if (this.config.poolUrl !== null) {
      try {
        keep = await retainedByPool(this.config.poolUrl);
      } catch (error) {
        this.logger.warn(`Snapshot history not pruned: the pool at POOL_URL did not say which snapshots unclaimed epochs name (${error instanceof Error ? error.message : String(error)})`);
        return 0;
      }
    }
    return this.snapshots.pruneHistory(manager, days, keep);
  }

  /**
   * Why the served snapshot needs a rebuild, or null when it is current: none is stored, a committed
   * change is not in it, or it is older than SNAPSHOT_MAX_AGE_SECONDS (score decay).
   */
  async staleness(): Promise<SnapshotStaleness | null> {
    const freshness = await this.snapshots.readSnapshotFreshness(this.dataSource.manager);
    if (freshness.generatedAt === null) return 'missing';
    if (freshness.changed) return 'changed';
    if ((freshness.ageSeconds ?? 0) >= this.config.snapshotMaxAgeSeconds) return 'aged';
    return null;
  }

  /**
   * The stored snapshot as served over HTTP. Each (coalesced) read asks the database only for the
   * row's version, so a snapshot another replica stored is served at once; the body, its entity tag
   * and its gzip form are read and made again only when the version changed.
   */
  answer(): Promise<SnapshotAnswer> {
    return this.reads.read('current', async () => {
      const version = await this.snapshots.readStoredSnapshotVersion(this.dataSource.manager);
      if (version !== null && this.held?.version === version) return this.held.answer;
      const stored = version === null ? null : await this.snapshots.readStoredSnapshotWithVersion(this.dataSource.manager);
      if (stored === null) return toAnswer(await this.current());
      const answer = toAnswer({ generatedAt: stored.generatedAt.toISOString(), body: stored.body });
      this.held = { version: stored.version, answer };
      return answer;
    });
  }

  /** A snapshot served before (or now) by the SHA-256 of its bytes; null when none is kept. */
  async bySha256(sha256: string): Promise<ServedSnapshot | null> {
    const row = await this.snapshots.findInHistory(this.dataSource.manager, sha256);
    return row === null ? null : { generatedAt: row.generatedAt.toISOString(), body: row.body };
  }

  /**
   * The cached snapshot. Before the first rebuild job has run (a fresh database) it is built here,
   * once per process however many requests wait for it, rather than answering an error.
   */
  async current(): Promise<ServedSnapshot> {
    const stored = await this.snapshots.findStoredSnapshot(this.dataSource.manager);
    if (stored) return served(stored);
    this.firstBuild ??= this.rebuild().finally(() => {
      this.firstBuild = null;
    });
    return this.firstBuild;
  }
}

const POOL_TIMEOUT_MS = 10_000;
const SHA256_HEX = /^[0-9a-f]{64}$/;

/** The pool at POOL_URL did not say which snapshots its unclaimed epochs name. */
export class RetainedSnapshotsUnavailableError extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'RetainedSnapshotsUnavailableError';
  }
}

/** The pool's `GET /claims/retained-snapshots` list; rejects on any answer but a well-formed 200. */
async function retainedByPool(poolUrl: string): Promise<string[]> {
  const reply = await fetch(`${poolUrl}/claims/retained-snapshots`, { signal: AbortSignal.timeout(POOL_TIMEOUT_MS) });
  if (!reply.ok) throw new RetainedSnapshotsUnavailableError(`HTTP ${reply.status}`);
  const body = (await reply.json()) as { snapshot_sha256?: unknown };
  const list = body.snapshot_sha256;
  if (!Array.isArray(list) || !list.every((sha) => typeof sha === 'string' && SHA256_HEX.test(sha))) throw new RetainedSnapshotsUnavailableError('the answer has no snapshot_sha256 list of SHA-256 hex');
  return list as string[];
}

/** Lowercase hex SHA-256 of the snapshot's bytes as served (UTF-8): the name the pool and the verifier use. */
export function snapshotSha256(body: string): string {
  return createHash('sha256').update(body, 'utf8').digest('hex');
}

function served(row: RewardSnapshotEntity): ServedSnapshot {
  return { generatedAt: row.generatedAt.toISOString(), body: row.body };
}

function toAnswer(snapshot: ServedSnapshot): SnapshotAnswer {
  return { ...textAnswer(snapshot.body), generatedAt: snapshot.generatedAt, gzip: gzipSync(snapshot.body) };
}
