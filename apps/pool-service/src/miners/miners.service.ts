import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ApiError, ErrorCode, LeaderboardEntryDto, MinerStatsDto, PoolMinerDto, RecipientDto, RecipientHistoryDto } from '@rcs/contracts';
import { canonicalSs58 } from '@rcs/auth';
import { inTransaction, ReadReplicas } from '@rcs/persistence';
import { DataSource, EntityManager } from 'typeorm';
import { iso } from '../common/iso';
import { PoolClock } from '../common/pool-clock';
import { EpochsRepository } from '../epochs/epochs.module';
import { MinerEntity } from './entities/miner.entity';
import { MinerStatsReadModel } from '../miner-stats/miner-stats.module';
import { MinersRepository, RecipientChange, type SignedColdkey } from './miners.repository';

/** Miners, stats, leaderboard and recipients (DECISIONS.md §11 Miners, Recipients). */
@Injectable()
export class MinersService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly miners: MinersRepository,
    private readonly standings: MinerStatsReadModel,
    private readonly epochs: EpochsRepository,
    private readonly clock: PoolClock,
    private readonly replicas: ReadReplicas,
  ) {}

  register(hotkey: string): Promise<PoolMinerDto> {
    return inTransaction(this.dataSource, async (manager) => {
      const miner = await this.miners.touch(manager, hotkey);
      return {
        hotkey: miner.hotkey,
        registered_at: iso(miner.registeredAt),
        last_seen_at: iso(miner.lastSeenAt),
        reputation: await this.standings.reputationOf(manager, hotkey),
        recipient_coldkey: miner.recipientColdkey,
      };
    });
  }

  async stats(hotkey: string): Promise<MinerStatsDto> {
    const window = await this.clock.currentBlock().then(
      (block) => this.clock.windowOf(block),
      () => null,
    );
    return inTransaction(this.dataSource, async (manager) => {
      const miner = await this.miners.touch(manager, hotkey);
      const [counts, reputation, active, pool, latest] = [
        await this.standings.counts(manager, hotkey),
        await this.standings.reputationOf(manager, hotkey),
        await this.standings.activeAssignment(manager, hotkey),
        await this.standings.poolCounts(manager),
        await this.epochs.latestPublished(manager),
      ];
      return {
        miner: {
          hotkey,
          reputation,
          evaluations: counts.evaluations,
          evaluations_in_consensus: counts.evaluationsInConsensus,
          evolutions: counts.evolutions,
          evolutions_scored: counts.evolutionsScored,
          active_assignment: active === null ? null : { id: active.id, kind: active.kind, timeout_at: iso(active.timeoutAt) },
          last_seen_at: iso(miner.lastSeenAt),
          recipient_coldkey: miner.recipientColdkey,
        },
        pool: {
          miners: pool.miners,
          active_miners_24h: pool.activeMiners24h,
          algorithms: pool.algorithms,
          pending_evaluations: pool.pendingAlgorithms,
          window_number: window,
          // As `/status` says it: the latest epoch published on chain.
          latest_epoch: latest?.epoch ?? null,
        },
      };
    });
  }

  async leaderboard(limit: number): Promise<LeaderboardEntryDto[]> {
    // Public and lag-tolerant: on a read replica when there is one (DECISIONS §19); so is a miner's standing.
    const rows = await this.replicas.read(({ manager }) => this.standings.leaderboard(manager, limit));
    return rows.map((row, index) => ({
      rank: index + 1,
      hotkey: row.hotkey,
      reputation: row.reputation,
      evaluations: row.evaluations,
      evolutions: row.evolutions,
      last_seen_at: iso(row.lastSeenAt),
    }));
  }

  /** One miner's leaderboard entry, by any SS58 spelling of its hotkey; an unknown or malformed hotkey is 404 (as the recipient lookup). */
  async standing(hotkeySpelling: string): Promise<LeaderboardEntryDto> {
    const hotkey = canonicalSs58(hotkeySpelling);
    const row = hotkey === null ? null : await this.replicas.read(({ manager }) => this.standings.standing(manager, hotkey));
    if (row === null) throw minerNotFound(hotkeySpelling);
    return { rank: row.rank, hotkey: row.hotkey, reputation: row.reputation, evaluations: row.evaluations, evolutions: row.evolutions, last_seen_at: iso(row.lastSeenAt) };
  }

  /** Stores the recipient of the three governing routes; the history keeps the signature. */
  async updateRecipient(change: SignedColdkey): Promise<MinerEntity> {
    return this.record({ ...change, kind: 'recipient' });
  }

  /** The root compatibility route: records only `declared_coldkey`, which pays only while no recipient is stored (DECISIONS.md §11). */
  async declareColdkey(change: SignedColdkey): Promise<MinerEntity> {
    return this.record({ ...change, kind: 'declared' });
  }

  /** Recipient lookup by any SS58 spelling of the hotkey; an unknown or malformed hotkey is 404. */
  async recipient(hotkeySpelling: string): Promise<RecipientDto> {
    const hotkey = canonicalSs58(hotkeySpelling);
    const miner = hotkey === null ? null : await this.miners.find(this.dataSource.manager, hotkey);
    if (miner === null) throw minerNotFound(hotkeySpelling);
    return this.recipientDto(this.dataSource.manager, miner);
  }

  /** Every signed recipient record of a hotkey (any SS58 spelling), for the payout verifier (DECISIONS §16); unknown → 404. */
  async recipientHistory(hotkeySpelling: string): Promise<RecipientHistoryDto> {
    const hotkey = canonicalSs58(hotkeySpelling);
    const manager = this.dataSource.manager;
    const miner = hotkey === null ? null : await this.miners.find(manager, hotkey);
    if (miner === null) throw minerNotFound(hotkeySpelling);
    const records = (await this.miners.history(manager, miner.hotkey)).map((change) => ({
      recipient_coldkey: change.coldkey,
      signed_coldkey: change.signedColdkey,
      timestamp: change.signedTimestamp,
      signature: change.signature,
      route: change.route,
      kind: change.kind,
      recorded_at: change.createdAt.toISOString(),
    }));
    return { hotkey: miner.hotkey, records };
  }

  /** The signer's own recipient (a signed read registers the signer, so it always exists). */
  async ownRecipient(hotkey: string): Promise<RecipientDto> {
    return inTransaction(this.dataSource, async (manager) => this.recipientDto(manager, await this.miners.touch(manager, hotkey)));
  }

  /**
   * `published_in_epoch` is the newest published epoch whose leaf pays the recipient in effect: the stored
   * one, else the declared coldkey (what a rollover would put in the leaf, DECISIONS.md §11 Recipients).
   */
  private async recipientDto(manager: EntityManager, miner: MinerEntity): Promise<RecipientDto> {
    const paid = miner.recipientColdkey ?? miner.declaredColdkey;
    return {
      hotkey: miner.hotkey,
      recipient_coldkey: miner.recipientColdkey,
      updated_at: iso(miner.recipientUpdatedAt),
      published_in_epoch: paid === null ? null : await this.epochs.newestPublishedPaying(manager, miner.hotkey, paid),
      declared_coldkey: miner.declaredColdkey,
    };
  }

  private record(change: RecipientChange): Promise<MinerEntity> {
    return inTransaction(this.dataSource, (manager) => this.miners.recordColdkey(manager, change));
  }
}

/** 404 `hotkey_not_found` for an unknown or malformed hotkey, as it was asked for. */
function minerNotFound(hotkeySpelling: string): ApiError {
  return ApiError.notFound(ErrorCode.HotkeyNotFound, `No pool miner with hotkey ${hotkeySpelling}.`, { hotkey: hotkeySpelling });
}
