import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { buildClaimEpoch } from '@rcs/merkle';
import { DataSource, EntityManager } from 'typeorm';
import { PoolServiceConfig } from '../config/config';
import { POOL_CONFIG } from '../config/config.module';
import type { RolloverJobResult } from '../jobs/pool-jobs';
import type { SplitCompetition } from '@rcs/merkle';
import { allocateEpoch } from './epoch-math';
import { EpochPublisher } from './epoch-publisher.service';
import { EpochsRepository } from './epochs.repository';
import { type EpochSnapshot, SnapshotIntake } from './snapshot-intake.service';

export type RolloverResult = RolloverJobResult;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The epoch rollover (DECISIONS.md §8): snapshot → allocation → tree → rows, in one transaction, then publication. */
@Injectable()
export class EpochsService {
  private readonly logger = new Logger(EpochsService.name);

  constructor(
    private readonly intake: SnapshotIntake,
    private readonly publisher: EpochPublisher,
    private readonly epochs: EpochsRepository,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(POOL_CONFIG) private readonly config: PoolServiceConfig,
  ) {}

  /**
   * The rollover of window `epoch`: computed from stored inputs and written in one transaction
   * (a re-run finds it and only publishes), then published idempotently. A snapshot the contract
   * refuses rejects with `SnapshotRefusedError` and stores nothing. Unless `lastTry` (a job BullMQ will
   * run again), an unreadable snapshot rejects with `SnapshotUnavailableError` rather than fall back.
   */
  async rollover(epoch: number, lastTry = true): Promise<RolloverResult> {
    const manager = this.dataSource.manager;
    if (!(await this.epochs.find(manager, epoch))) {
      const latest = await this.epochs.latest(manager);
      if (latest !== null && latest.epoch > epoch) return { epoch, rollover: 'superseded', publication: null };
      const snapshot = await this.intake.obtain(manager, epoch, lastTry);
      if (snapshot === null) return { epoch, rollover: 'no_snapshot', publication: null };
      const stored = await this.dataSource.transaction((m) => this.store(m, epoch, snapshot));
      if (stored === 'superseded') return { epoch, rollover: 'superseded', publication: null };
      if (stored === 'stored') await this.publisher.announce(epoch);
      const publication = await this.publisher.publish(epoch);
      // A published epoch says so in one line (publish); otherwise its storing is the news.
      if (stored === 'stored' && publication !== 'published') this.logger.log(`Epoch ${epoch} stored (publication: ${publication})`);
      return { epoch, rollover: stored, publication };
    }
    return { epoch, rollover: 'existed', publication: await this.publisher.publish(epoch) };
  }

  /** Writes the epoch under the rollover lock (another replica may have written it meanwhile). */
  private async store(manager: EntityManager, epoch: number, snapshot: EpochSnapshot): Promise<'stored' | 'existed' | 'superseded'> {
    await this.epochs.lockRollover(manager);
    if (await this.epochs.find(manager, epoch)) return 'existed';
    const previous = await this.epochs.latest(manager);
    if (previous !== null && previous.epoch > epoch) return 'superseded';
    const inputs = snapshot.inputs;
    const snapshotId = snapshot.storedId ?? (await this.epochs.upsertSnapshot(manager, snapshot.sha256, snapshot.bytes, inputs.generatedAt));
    const cutoff = new Date();
    const local: SplitCompetition = {
      competitionId: 'local',
      slug: 'local',
      weight: inputs.local.enabled ? inputs.local.weight : 0,
      poolId: inputs.local.poolId,
      scope: inputs.local.scope,
      miners: await this.epochs.localScores(manager, previous?.localCutoffAt ?? null, cutoff, this.config.mining.minRewardActivity),
    };
    const previousCumulative = previous ? await this.epochs.cumulativeOf(manager, previous.epoch) : new Map<string, bigint>();
    const competitions = [...inputs.competitions, local];
    const hotkeys = new Set<string>([...previousCumulative.keys(), ...competitions.flatMap((c) => c.miners.map((m) => m.hotkey))]);
    const allocation = allocateEpoch({
      epoch,
      budget: this.config.payout.budgetUnits,
      carriedIn: previous ? BigInt(previous.carriedOver) : 0n,
      snapshot: { sha256: snapshot.sha256, generatedAt: inputs.generatedAt, policyVersion: inputs.policyVersion, stale: snapshot.stale },
      competitions,
      pools: inputs.pools,
      previousCumulative,
      recipients: await this.epochs.recipients(manager, [...hotkeys]),
      recipientsAt: cutoff.toISOString(),
    });
    const tree = buildClaimEpoch(
      epoch,
      allocation.leaves.map((leaf) => ({ hotkey: leaf.hotkey, recipientColdkey: leaf.recipientColdkey, amount: leaf.amount })),
    );
    const leafIndex = new Map(tree.entries.map((entry) => [entry.hotkey, entry.index]));
    const document = JSON.stringify(allocation.document);
    await this.epochs.insertEpoch(manager, {
      epoch,
      snapshotId,
      snapshotStale: snapshot.stale,
      budget: this.config.payout.budgetUnits.toString(),
      carriedIn: allocation.document.carried_in,
      carriedOver: allocation.carriedOver.toString(),
      root: tree.root,
      leafCount: tree.entries.length,
      totalAmount: tree.totalAmount.toString(),
      allocationDocument: document,
      allocationSha256: sha256(document),
      localCutoffAt: cutoff,
    });
    await this.epochs.insertAllocations(
      manager,
      epoch,
      allocation.rows.map((row) => ({ ...row, leafIndex: row.recipientColdkey === null ? null : (leafIndex.get(row.hotkey) ?? null) })),
    );
    return 'stored';
  }
}
