import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { CoordinatorConfig } from '../config/config';
import { COORDINATOR_CONFIG } from '../config/config.module';
import { RewardSnapshotEntity } from './entities/reward-snapshot.entity';
import { RewardPolicyService } from './reward-policy.service';
import { buildRewardSnapshot } from './reward-snapshot.builder';
import { findStoredSnapshot, storeSnapshot } from './reward-snapshot.repository';

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

  /** Builds from the current data and stores it; answers the stored snapshot (a later concurrent build may have won). */
  async rebuild(): Promise<ServedSnapshot> {
    const built = await buildRewardSnapshot(this.dataSource, (manager) => this.policies.current(manager), { scoreEmaDays: this.config.scoreEmaDays });
    return served(await storeSnapshot(this.dataSource.manager, built.generatedAt, built.body));
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
