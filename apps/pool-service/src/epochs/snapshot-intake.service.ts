import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InvalidResponseError, readRewardSnapshot, type RewardSnapshotRead } from '@rcs/client';
import { REDIS } from '@rcs/queue';
import type { Redis } from 'ioredis';
import type { EntityManager } from 'typeorm';
import { PoolServiceConfig } from '../config/config';
import { POOL_CONFIG } from '../config/config.module';
import { PoolMetrics } from '../metrics/pool-metrics';
import { EpochsRepository } from './epochs.repository';
import { SnapshotRefusedError, SnapshotUnavailableError } from './errors';
import { snapshotInputs, type SnapshotInputs } from './snapshot-inputs';
import { REWARD_SNAPSHOT_SOURCE, RewardSnapshotSource } from './snapshot-source';

/** What `/status` reports about snapshots (kept in Redis so every replica answers the same). */
export interface SnapshotStatus {
  last_error: string | null;
  last_error_at: string | null;
  last_fetched_at: string | null;
  /** The last window whose rollover found no usable snapshot. */
  unavailable_window: number | null;
}

/** A snapshot an epoch can be computed from: its exact bytes, read once into the epoch's inputs. */
export interface EpochSnapshot {
  bytes: Uint8Array;
  sha256: string;
  inputs: SnapshotInputs;
  stale: boolean;
  /** The stored snapshot's id when it is a stale one (a fresh one is stored with the epoch). */
  storedId: string | null;
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The checked snapshot's inputs; a document the contract refuses is a `SnapshotRefusedError`. */
function epochSnapshot(read: RewardSnapshotRead, stored: { id: string } | null): EpochSnapshot {
  return { bytes: read.bytes, sha256: sha256(read.bytes), inputs: snapshotInputs(read.snapshot), stale: stored !== null, storedId: stored?.id ?? null };
}

/** A refusal by the contract (`@rcs/client`'s check) or by the pool (`snapshotInputs`), as one error; null for any other failure. */
function refusal(error: unknown): SnapshotRefusedError | null {
  if (error instanceof SnapshotRefusedError) return error;
  return error instanceof InvalidResponseError ? new SnapshotRefusedError(error.problems) : null;
}

/**
 * Snapshot intake for a rollover (DECISIONS.md §8): the coordinator's snapshot through `@rcs/client`;
 * while it cannot be read the rollover job fails its try and BullMQ runs it again after a backoff
 * (`POOL_SNAPSHOT_ATTEMPTS`), and the last try takes the last stored one within the max age. A snapshot
 * the contract refuses is not retried nor replaced: the rollover fails, in `/status`, the log and
 * `pool_snapshots_refused_total`.
 */
@Injectable()
export class SnapshotIntake {
  private readonly logger = new Logger(SnapshotIntake.name);
  constructor(
    @Inject(REWARD_SNAPSHOT_SOURCE) private readonly source: RewardSnapshotSource,
    private readonly epochs: EpochsRepository,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(POOL_CONFIG) private readonly config: PoolServiceConfig,
    private readonly metrics: PoolMetrics,
  ) {}

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
   * A fresh snapshot; when it cannot be read, `SnapshotUnavailableError` unless this is the rollover's
   * `lastTry`, which takes the last stored one within the max age, else null. Throws `SnapshotRefusedError`.
   */
  async obtain(manager: EntityManager, epoch: number, lastTry: boolean): Promise<EpochSnapshot | null> {
    try {
      return await this.fetchOrStored(manager, epoch, lastTry);
    } catch (error) {
      if (!(error instanceof SnapshotRefusedError)) throw error;
      this.metrics.snapshotsRefused.inc();
      this.logger.error(`Epoch ${epoch}: ${error.message}; no epoch`);
      await this.redis.hset(this.statusKey, { last_error: error.message, last_error_at: new Date().toISOString(), unavailable_window: String(epoch) });
      throw error;
    }
  }

  private async fetchOrStored(manager: EntityManager, epoch: number, lastTry: boolean): Promise<EpochSnapshot | null> {
    let lastError: string;
    try {
      const snapshot = epochSnapshot(await this.source.read(), null);
      await this.redis.hset(this.statusKey, { last_fetched_at: new Date().toISOString() });
      return snapshot;
    } catch (error) {
      const refused = refusal(error);
      if (refused) throw refused;
      lastError = (error as Error).message;
    }
    if (!lastTry) throw new SnapshotUnavailableError(lastError);
    await this.redis.hset(this.statusKey, { last_error: lastError, last_error_at: new Date().toISOString() });
    const stored = await this.epochs.latestSnapshotWithin(manager, this.config.payout.snapshotMaxAgeSeconds);
    if (stored) {
      this.logger.warn(`Epoch ${epoch}: the coordinator's snapshot is unavailable (${lastError}); using the one fetched at ${stored.fetchedAt.toISOString()}`);
      try {
        return epochSnapshot({ snapshot: readRewardSnapshot(stored.body), bytes: stored.body }, stored);
      } catch (error) {
        throw refusal(error) ?? (error as Error);
      }
    }
    this.logger.error(`Epoch ${epoch}: no snapshot (${lastError}) and none stored within ${this.config.payout.snapshotMaxAgeSeconds} s; no epoch`);
    await this.redis.hset(this.statusKey, { unavailable_window: String(epoch) });
    return null;
  }
}
