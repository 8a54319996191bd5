import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { keypairFromUri } from '@rcs/auth';
import { CLAIM_CONTRACT_PORT, ClaimContractError, ClaimContractPort, type ContractCaller, type HexHash } from '@rcs/chain';
import { withSessionLock } from '@rcs/persistence';
import { DataSource } from 'typeorm';
import { PoolServiceConfig } from '../config/config';
import { POOL_CONFIG } from '../config/config.module';
import { PoolEvents } from '../events/pool-events';
import type { RolloverJobResult } from '../jobs/pool-jobs';
import { EpochsRepository } from './epochs.repository';
import { EpochStateError } from './errors';
import { allocationUri, publicationEnabled } from './publication-config';

export type PublishOutcome = NonNullable<RolloverJobResult['publication']>;

/** The session advisory lock of a publication, in the pool's database (any constant: advisory locks are per database). */
const PUBLICATION_LOCK_ID = 0x72637302;

/** Publication of stored epochs on chain and their `epoch_published` announcements (DECISIONS.md §8). */
@Injectable()
export class EpochPublisher implements OnModuleInit {
  private readonly logger = new Logger(EpochPublisher.name);
  private publisher: Promise<ContractCaller> | null = null;

  constructor(
    @Inject(CLAIM_CONTRACT_PORT) private readonly contract: ClaimContractPort,
    private readonly events: PoolEvents,
    private readonly epochs: EpochsRepository,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(POOL_CONFIG) private readonly config: PoolServiceConfig,
  ) {}

  /** The pool publishes and claims through the contract: it refuses to start on metadata of another contract version (e.g. `ClaimData` without the hotkey). */
  async onModuleInit(): Promise<void> {
    await this.contract.checkMetadata();
  }

  async publisherAddress(): Promise<string | null> {
    return publicationEnabled(this.config) ? (await this.publisherPair()).address : null;
  }

  private publisherPair(): Promise<ContractCaller> {
    const uri = this.config.payout.publisherUri;
    if (uri === null) throw new EpochStateError('publication is off');
    this.publisher ??= keypairFromUri(uri);
    return this.publisher;
  }

  /** `epoch_published` with the epoch as committed (stored, or published on chain). */
  async announce(epoch: number): Promise<void> {
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

  /**
   * Publishes the stored epoch once: already on chain with the same root counts as published (a
   * crash after publishing); a failure is recorded on the epoch (shown by `/status`) and retried
   * by the next check. Only the latest stored epoch is published.
   */
  async publish(epoch: number): Promise<PublishOutcome> {
    if (!publicationEnabled(this.config)) return 'publication_off';
    // One publication at a time across the pool's processes: another replica's epoch check that finds the epoch
    // pending while a rollover publishes it waits, then finds it published, instead of sending a second transaction
    // that the contract refuses in its block (a fee spent, and a publication reported as failed). Within a process
    // the epochs queue runs one job at a time (the only case on the embedded database, whose one session the lock
    // does not divide).
    return withSessionLock(this.dataSource, PUBLICATION_LOCK_ID, () => this.#publish(epoch));
  }

  async #publish(epoch: number): Promise<PublishOutcome> {
    const manager = this.dataSource.manager;
    const row = await this.epochs.find(manager, epoch);
    if (!row) throw new EpochStateError(`epoch ${epoch} is not stored`);
    if (row.publication === 'published') return 'already_published';
    const latest = await this.epochs.latest(manager);
    if (latest !== null && latest.epoch !== epoch) return 'superseded';
    try {
      const receipt = await this.contract.publishEpoch(
        { epoch, root: row.root as HexHash, numOfLeaves: row.leafCount, totalRao: BigInt(row.totalAmount), uri: allocationUri(this.config, epoch, row.allocationSha256) },
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
