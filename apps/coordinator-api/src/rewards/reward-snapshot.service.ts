import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CoordinatorConfig } from '../config/config';
import { COORDINATOR_CONFIG } from '../config/config.module';
import { RewardSnapshotEntity } from './entities/reward-snapshot.entity';
import { RewardPolicyService } from './reward-policy.service';
import { buildRewardSnapshot } from './reward-snapshot.builder';
import { clearSnapshotChanges, findStoredSnapshot, readSnapshotFreshness, storeSnapshot } from './reward-snapshot.repository';

import type { SnapshotStaleness } from '../jobs/job-results';

/** The cached snapshot as served: its JSON and when it was generated (ISO, as in the body). */
export interface ServedSnapshot {
  generatedAt: string;
  body: string;
}

/** The reward snapshot cache (DECISIONS.md §7): rebuilt by the rewards queue, served as stored. */
@Injectable()
export class RewardSnapshotService {
  private firstBuild: Promise<ServedSnapshot> | null = null;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(COORDINATOR_CONFIG) private readonly config: CoordinatorConfig,
    private readonly policies: RewardPolicyService,
  ) {}

  /**
   * Builds from the current data and stores it; answers the stored snapshot (a later concurrent build
   * may have won). The recorded changes the build read are cleared only when it is the one stored.
   */
  async rebuild(): Promise<ServedSnapshot> {
    const built = await buildRewardSnapshot(this.dataSource, (manager) => this.policies.current(manager), { scoreEmaDays: this.config.scoreEmaDays });
    const stored = await storeSnapshot(this.dataSource.manager, built.generatedAt, built.body);
    if (stored.generatedAt.getTime() === built.generatedAt.getTime()) await clearSnapshotChanges(this.dataSource.manager, built.changes);
    return served(stored);
  }

  /**
   * Why the served snapshot needs a rebuild, or null when it is current: none is stored, a committed
   * change is not in it, or it is older than SNAPSHOT_MAX_AGE_SECONDS (score decay).
   */
  async staleness(): Promise<SnapshotStaleness | null> {
    const freshness = await readSnapshotFreshness(this.dataSource.manager);
    if (freshness.generatedAt === null) return 'missing';
    if (freshness.changed) return 'changed';
    if ((freshness.ageSeconds ?? 0) >= this.config.snapshotMaxAgeSeconds) return 'aged';
    return null;
  }

  /**
   * The cached snapshot. Before the first rebuild job has run (a fresh database) it is built here,
   * once per process however many requests wait for it, rather than answering an error.
   */
  async current(): Promise<ServedSnapshot> {
    const stored = await findStoredSnapshot(this.dataSource.manager);
    if (stored) return served(stored);
    this.firstBuild ??= this.rebuild().finally(() => {
      this.firstBuild = null;
    });
    return this.firstBuild;
  }
}

function served(row: RewardSnapshotEntity): ServedSnapshot {
  return { generatedAt: row.generatedAt.toISOString(), body: row.body };
}
