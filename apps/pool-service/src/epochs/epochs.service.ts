import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { keypairFromUri } from '@rcs/auth';
import { CLAIM_CONTRACT_PORT, ClaimContractError, ClaimContractPort, type ContractCaller, type HexHash } from '@rcs/chain';
import { buildClaimEpoch } from '@rcs/merkle';
import { REDIS } from '@rcs/queue';
import type { Redis } from 'ioredis';
import { DataSource, EntityManager } from 'typeorm';
import { PoolServiceConfig } from '../config/config';
import { POOL_CONFIG } from '../config/config.module';
import { PoolEvents } from '../events/pool-events';
import type { RolloverJobResult } from '../jobs/pool-jobs';
import { allocateEpoch, type SplitCompetition } from './epoch-math';
import { EpochsRepository } from './epochs.repository';
import { EpochEntity } from './entities/epoch.entity';
import { EpochStateError } from './errors';
import { parseRewardSnapshot } from './snapshot-parse';
import { REWARD_SNAPSHOT_SOURCE, RewardSnapshotSource } from './snapshot-source';

export type RolloverResult = RolloverJobResult;
export type PublishOutcome = NonNullable<RolloverJobResult['publication']>;

/** What `/status` reports about snapshots (kept in Redis so every replica answers the same). */
export interface SnapshotStatus {
  last_error: string | null;
  last_error_at: string | null;
  last_fetched_at: string | null;
  /** The last window whose rollover found no usable snapshot. */
  unavailable_window: number | null;
}

const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex');
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Epoch rollover and publication (DECISIONS.md §8). */
@Injectable()
export class EpochsService implements OnModuleInit {
  private readonly logger = new Logger(EpochsService.name);
  private publisher: Promise<ContractCaller> | null = null;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly epochs: EpochsRepository,
    @Inject(CLAIM_CONTRACT_PORT) private readonly contract: ClaimContractPort,
    @Inject(REWARD_SNAPSHOT_SOURCE) private readonly source: RewardSnapshotSource,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(POOL_CONFIG) private readonly config: PoolServiceConfig,
    private readonly events: PoolEvents,
  ) {}

  /** The pool publishes and claims through the contract: it refuses to start on metadata of another contract version (e.g. `ClaimData` without the hotkey). */
  async onModuleInit(): Promise<void> {
    await this.contract.checkMetadata();
  }

  get publicationEnabled(): boolean {
    return this.config.payout.publisherUri !== null;
  }

  async publisherAddress(): Promise<string | null> {
    return this.publicationEnabled ? (await this.publisherPair()).address : null;
  }

  private publisherPair(): Promise<ContractCaller> {
    const uri = this.config.payout.publisherUri;
    if (uri === null) throw new EpochStateError('publication is off');
    this.publisher ??= keypairFromUri(uri);
    return this.publisher;
  }

  private get statusKey(): string {
    return `${this.config.redisKeyPrefix}:epochs:snapshot-status`;
  }

  async snapshotStatus(): Promise<SnapshotStatus> {
    const raw = await this.redis.hgetall(this.statusKey);
    return {
      last_error: raw['last_error'] || null,
      last_error_at: raw['last_error_at'] || null,
      last_fetched_at: raw['last_fetched_at'] || null,
      unavailable_window: raw['unavailable_window'] ? Number(raw['unavailable_window']) : null,
    };
  }

  /**
   * The rollover of window `epoch`: computed from stored inputs and written in one transaction
   * (a re-run finds it and only publishes), then published idempotently.
   */
  async rollover(epoch: number): Promise<RolloverResult> {
    const manager = this.dataSource.manager;
    if (!(await this.epochs.find(manager, epoch))) {
      const latest = await this.epochs.latest(manager);
      if (latest !== null && latest.epoch > epoch) return { epoch, rollover: 'superseded', publication: null };
      const snapshot = await this.obtainSnapshot(epoch);
      if (snapshot === null) return { epoch, rollover: 'no_snapshot', publication: null };
      const stored = await this.dataSource.transaction((m) => this.store(m, epoch, snapshot));
      if (stored === 'superseded') return { epoch, rollover: 'superseded', publication: null };
      if (stored === 'stored') await this.announce(epoch);
      const publication = await this.publish(epoch);
      // A published epoch says so in one line (publish); otherwise its storing is the news.
      if (stored === 'stored' && publication !== 'published') this.logger.log(`Epoch ${epoch} stored (publication: ${publication})`);
      return { epoch, rollover: stored, publication };
    }
    return { epoch, rollover: 'existed', publication: await this.publish(epoch) };
  }

  /** A fresh snapshot (retried with backoff), else the last stored one within the max age, else null. */
  private async obtainSnapshot(epoch: number): Promise<{ bytes: Uint8Array; stale: boolean; storedId: string | null } | null> {
    let lastError = '';
    for (let attempt = 0; attempt < this.config.payout.snapshotAttempts; attempt += 1) {
      if (attempt > 0) await sleep(Math.min(30_000, 500 * 2 ** attempt));
      try {
        const bytes = await this.source.fetch();
        parseRewardSnapshot(bytes);
        await this.redis.hset(this.statusKey, { last_fetched_at: new Date().toISOString() });
        return { bytes, stale: false, storedId: null };
      } catch (error) {
        lastError = (error as Error).message;
      }
    }
    await this.redis.hset(this.statusKey, { last_error: lastError, last_error_at: new Date().toISOString() });
    const stored = await this.epochs.latestSnapshotWithin(this.dataSource.manager, this.config.payout.snapshotMaxAgeSeconds);
    if (stored) {
      this.logger.warn(`Epoch ${epoch}: the coordinator's snapshot is unavailable (${lastError}); using the one fetched at ${stored.fetchedAt.toISOString()}`);
      return { bytes: stored.body, stale: true, storedId: stored.id };
    }
    this.logger.error(`Epoch ${epoch}: no snapshot (${lastError}) and none stored within ${this.config.payout.snapshotMaxAgeSeconds} s; no epoch`);
    await this.redis.hset(this.statusKey, { unavailable_window: String(epoch) });
    return null;
  }

  /** Writes the epoch under the rollover lock (another replica may have written it meanwhile). */
  private async store(
    manager: EntityManager,
    epoch: number,
    snapshot: { bytes: Uint8Array; stale: boolean; storedId: string | null },
  ): Promise<'stored' | 'existed' | 'superseded'> {
    await this.epochs.lockRollover(manager);
    if (await this.epochs.find(manager, epoch)) return 'existed';
    const previous = await this.epochs.latest(manager);
    if (previous !== null && previous.epoch > epoch) return 'superseded';
    const parsed = parseRewardSnapshot(snapshot.bytes);
    const snapshotSha = sha256(snapshot.bytes);
    const snapshotId = snapshot.storedId ?? (await this.epochs.upsertSnapshot(manager, snapshotSha, snapshot.bytes, parsed.generatedAt));
    const cutoff = new Date();
    const local: SplitCompetition = {
      competitionId: 'local',
      slug: 'local',
      weight: parsed.local.enabled ? parsed.local.weight : 0,
      poolId: parsed.local.poolId,
      scope: parsed.local.scope,
      miners: await this.epochs.localScores(manager, previous?.localCutoffAt ?? null, cutoff, this.config.mining.minRewardActivity),
    };
    const previousCumulative = previous ? await this.epochs.cumulativeOf(manager, previous.epoch) : new Map<string, bigint>();
    const competitions = [...parsed.competitions, local];
    const hotkeys = new Set<string>([...previousCumulative.keys(), ...competitions.flatMap((c) => c.miners.map((m) => m.hotkey))]);
    const allocation = allocateEpoch({
      epoch,
      budget: this.config.payout.budgetUnits,
      carriedIn: previous ? BigInt(previous.carriedOver) : 0n,
      snapshot: { sha256: snapshotSha, generatedAt: parsed.generatedAt, policyVersion: parsed.policyVersion, stale: snapshot.stale },
      competitions,
      pools: parsed.pools,
      previousCumulative,
      recipients: await this.epochs.recipients(manager, [...hotkeys]),
    });
    const tree = buildClaimEpoch(
      epoch,
      allocation.leaves.map((leaf) => ({ hotkey: leaf.hotkey, recipientColdkey: leaf.recipientColdkey, amount: leaf.amount })),
    );
    const leafIndex = new Map(tree.entries.map((entry) => [entry.hotkey, entry.index]));
    const document = JSON.stringify(allocation.document);
    await manager.insert(EpochEntity, {
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
      publication: 'pending',
    });
    await this.epochs.insertAllocations(
      manager,
      epoch,
      allocation.rows.map((row) => ({ ...row, leafIndex: row.recipientColdkey === null ? null : (leafIndex.get(row.hotkey) ?? null) })),
    );
    return 'stored';
  }

  /** `epoch_published` with the epoch as committed (stored, or published on chain). */
  private async announce(epoch: number): Promise<void> {
    const row = await this.epochs.find(this.dataSource.manager, epoch);
    if (row === null) return;
    this.events.emit('epoch.published', {
      epoch: row.epoch,
      root: row.root,
      leafCount: row.leafCount,
      totalAmount: row.totalAmount,
      publication: row.publication === 'published' ? 'published' : 'pending',
      publishedBlock: row.publishedBlock ?? null,
    });
  }

  allocationUri(epoch: number): string {
    return `${this.config.payout.publicUrl}${this.config.payout.claimsMountPrefix}/epoch/${epoch}/allocation`;
  }

  /**
   * Publishes the stored epoch once: already on chain with the same root counts as published (a
   * crash after publishing); a failure is recorded on the epoch (shown by `/status`) and retried
   * by the next check. Only the latest stored epoch is published.
   */
  async publish(epoch: number): Promise<PublishOutcome> {
    if (!this.publicationEnabled) return 'publication_off';
    const manager = this.dataSource.manager;
    const row = await this.epochs.find(manager, epoch);
    if (!row) throw new EpochStateError(`epoch ${epoch} is not stored`);
    if (row.publication === 'published') return 'already_published';
    const latest = await this.epochs.latest(manager);
    if (latest !== null && latest.epoch !== epoch) return 'superseded';
    try {
      const receipt = await this.contract.publishEpoch(
        { epoch, root: row.root as HexHash, numOfLeaves: row.leafCount, totalRao: BigInt(row.totalAmount), uri: this.allocationUri(epoch) },
        await this.publisherPair(),
      );
      const info = await this.contract.epochInfo(epoch);
      if (await this.epochs.markPublished(manager, epoch, { block: receipt.block, claimsOpenAt: info?.claimsOpenAt ?? null, txHash: receipt.txHash })) {
        await this.announce(epoch);
      }
      // An epoch that pays nobody is bookkeeping (an idle stack makes one per window).
      const published = `Epoch ${epoch} published (root ${row.root}, ${row.leafCount} leaves)`;
      if (row.leafCount > 0) this.logger.log(published);
      else this.logger.debug(published);
      return 'published';
    } catch (error) {
      if (error instanceof ClaimContractError && error.code === 'epoch_exists') {
        const info = await this.contract.epochInfo(epoch).catch(() => null);
        if (info !== null && info.root.toLowerCase() === row.root.toLowerCase()) {
          if (await this.epochs.markPublished(manager, epoch, { block: null, claimsOpenAt: info.claimsOpenAt, txHash: null })) await this.announce(epoch);
          return 'already_published';
        }
        await this.epochs.recordPublishFailure(manager, epoch, `epoch_exists: the contract holds another root for epoch ${epoch} (${info?.root ?? 'unreadable'})`);
        return 'failed';
      }
      const message = error instanceof ClaimContractError ? `${error.code}: ${error.message}` : (error as Error).message;
      this.logger.error(`Epoch ${epoch}: publication failed: ${message}`);
      await this.epochs.recordPublishFailure(manager, epoch, message);
      return 'failed';
    }
  }
}
