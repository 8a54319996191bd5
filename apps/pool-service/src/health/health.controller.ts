import { Public } from '@rcs/auth';
import { Controller, Get, Inject, Logger, Res } from '@nestjs/common';
import { ApiOkResponse, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { InjectDataSource } from '@nestjs/typeorm';
import type { FastifyReply } from 'fastify';
import { ChainReadiness, chainReady, CLAIM_CONTRACT_PORT, ClaimContractPort, SUBTENSOR_PORT, SubtensorPort } from '@rcs/chain';
import { ApiErrors, PoolStatusDto } from '@rcs/contracts';
import { ReadinessBody, ReadinessCheck, readinessReply, StoresReadiness } from '@rcs/http';
import { DataSource } from 'typeorm';
import { PoolClock } from '../common/pool-clock';
import { PoolServiceConfig } from '../config/config';
import { POOL_CONFIG } from '../config/config.module';
import { EpochPublisher, EpochsRepository, publicationEnabled, SnapshotIntake } from '../epochs/epochs.module';

/** A latest epoch more than this many windows behind the running one means rollovers have stopped. */
const EPOCHS_BEHIND_WINDOWS = 2;

export type PoolReadiness = ReadinessBody<{ database: ReadinessCheck; redis: ReadinessCheck; chain: ChainReadiness }>;

/** `/health` and `/status` (DECISIONS.md §8 shape), `/readyz`; `/healthz`, liveness, is the shared one. */
@ApiTags('health')
@Controller()
export class HealthController {
  private readonly logger = new Logger('PoolHealth');
  /** The causes last logged: each change is logged once, not each request. */
  private lastReasons: string[] = [];

  constructor(
    private readonly stores: StoresReadiness,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(CLAIM_CONTRACT_PORT) private readonly contract: ClaimContractPort,
    @Inject(SUBTENSOR_PORT) private readonly subtensor: SubtensorPort,
    @Inject(POOL_CONFIG) private readonly config: PoolServiceConfig,
    private readonly clock: PoolClock,
    private readonly intake: SnapshotIntake,
    private readonly publisher: EpochPublisher,
    private readonly epochRows: EpochsRepository,
  ) {}

  @Get('health')
  @Public()
  @ApiErrors()
  @ApiOkResponse({ type: PoolStatusDto, description: 'Always 200; `status` is `degraded` when the database, Redis or chain fails, or a publication is failing.' })
  health(): Promise<PoolStatusDto> {
    return this.report();
  }

  @Get('status')
  @Public()
  @ApiErrors()
  @ApiOkResponse({ type: PoolStatusDto, description: 'The same body as `/health` (compat with BitSota validator tooling).' })
  status(): Promise<PoolStatusDto> {
    return this.report();
  }

  /** Readiness for probes and the gateway: only what every request needs (the publication's health is `/health`'s). */
  @Get('readyz')
  @Public()
  @ApiErrors()
  @ApiOkResponse({ description: 'Database, Redis and chain answer.' })
  @ApiServiceUnavailableResponse({ description: 'A dependency does not answer; the body says which.' })
  async readyz(@Res({ passthrough: true }) reply: FastifyReply): Promise<PoolReadiness> {
    const [{ database, redis }, chain] = await Promise.all([this.stores.check(), chainReady(this.subtensor)]);
    return readinessReply(reply, { database, redis, chain });
  }

  private logTransition(reasons: string[]): void {
    const codes = (list: string[]) => list.map((reason) => reason.slice(0, reason.indexOf(':'))).join(',');
    if (codes(reasons) === codes(this.lastReasons)) return;
    if (reasons.length === 0) this.logger.log(`Healthy again (was degraded: ${codes(this.lastReasons)})`);
    else this.logger.warn(`Degraded: ${reasons.join('; ')}`);
    this.lastReasons = reasons;
  }

  private async report(): Promise<PoolStatusDto> {
    // The dev chain carries its own claim contract (publish, claim, challenge): it is this stack's on-chain
    // runtime, and BitSota's pool verifier requires `enabled`. On polkadot a contract is configured by address.
    const contractName = this.config.chain.chain === 'dev' ? 'dev' : this.config.chain.claimContractAddress;
    const enabled = contractName !== null;
    const manager = this.dataSource.manager;
    const [{ database, redis }, block, contract, claimState, latest, published, snapshot, publisher] = await Promise.all([
      this.stores.check(),
      this.clock.currentBlock().catch(() => null),
      enabled ? this.contract.status() : Promise.resolve(null),
      enabled ? this.contract.claimState().catch((error: Error) => error) : Promise.resolve(null),
      this.epochRows.latest(manager).catch(() => null),
      this.epochRows.latestPublished(manager).catch(() => null),
      this.intake.snapshotStatus().catch(() => null),
      this.publisher.publisherAddress().catch(() => null),
    ]);
    const pending = latest !== null && latest.publication === 'pending' ? latest : null;
    const window = block === null ? null : this.clock.windowOf(block);
    const reasons = [
      ...(database.ok ? [] : [`database: the database does not answer (${database.error ?? 'no reason given'})`]),
      ...(redis.ok ? [] : ['redis: Redis does not answer']),
      ...(block === null ? ['chain: the chain does not answer'] : []),
      ...(pending?.lastPublishError ? [`publication: epoch ${pending.epoch} is not published (${pending.lastPublishError})`] : []),
      ...(latest !== null && window !== null && window - latest.epoch > EPOCHS_BEHIND_WINDOWS
        ? [`epochs_behind: the latest epoch is ${latest.epoch} but window ${window} is running (windows ${latest.epoch + 1}–${window - 1} ended without one)`]
        : []),
    ];
    this.logTransition(reasons);
    const state = claimState instanceof Error ? null : claimState;
    return {
      status: reasons.length === 0 ? 'healthy' : 'degraded',
      degraded_reasons: reasons,
      window_number: window,
      current_block: block,
      latest_epoch: published?.epoch ?? null,
      window_blocks: this.config.windowBlocks,
      onchain_runtime: {
        enabled,
        contract: contractName,
        contract_status: {
          active_veto_count: state?.vetoActive ? 1 : 0,
          is_veto_active: state?.vetoActive ?? false,
          claim_ready: state?.claimReady ?? false,
          read_error: contract?.error ?? (claimState instanceof Error ? claimState.message : null),
        },
        proof_api: { enabled: this.config.payout.claimsEnabled },
        accounts: { publisher },
        processes: [{ name: 'publisher', running: publicationEnabled(this.config) }],
      },
      payout: {
        latest_stored_epoch: latest?.epoch ?? null,
        publication: {
          enabled: publicationEnabled(this.config),
          pending_epoch: pending?.epoch ?? null,
          attempts: pending?.publishAttempts ?? 0,
          last_error: pending?.lastPublishError ?? null,
          last_attempt_at: pending?.lastPublishAttemptAt?.toISOString() ?? null,
        },
        snapshot: snapshot ?? { last_fetched_at: null, last_error: null, last_error_at: null, unavailable_window: null },
      },
    };
  }
}
