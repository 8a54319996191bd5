import { Inject, Injectable } from '@nestjs/common';
import type { KeyringPair } from '@polkadot/keyring/types';
import { UnrecoverableError } from 'bullmq';
import type { Logger } from 'pino';
import { ChainUnavailableError, ExtrinsicFailedError, type SubtensorPort } from '@rcs/chain';
import { CoordinatorClient, InvalidResponseError, ServiceAnswerError, ServiceUnreachableError } from '@rcs/client';
import { WeightsPassOutcome, type RewardSnapshotDto, type WeightsPassDto } from '@rcs/contracts';
import type { WeightSetterConfig } from '../config/config';
import { OwnerLock } from './owner-lock';
import { PassStatusStore } from './pass-status.store';
import { SUBTENSOR, VALIDATOR_KEYPAIR, WEIGHTS_CONFIG, WEIGHTS_LOGGER } from './tokens';
import { computeWeightVector, WeightVectorError, type WeightVector } from './weight-vector';

/** Subtensor refuses a new vector until this many blocks passed since the last, whatever `WeightsSetRateLimit` says (DECISIONS §9). */
export const MIN_BLOCKS_BETWEEN_SETS = 100;

/** A pass that ended without weights on chain; `retry` says whether another attempt may fare better. */
export class PassFailedError extends Error {
  constructor(
    readonly reason: string,
    readonly retry: boolean,
    /** The coordinator did not answer at all (down, or still starting). */
    readonly coordinatorUnreachable = false,
  ) {
    super(reason);
    this.name = 'PassFailedError';
  }
}

/** This process no longer holds the hotkey's lock (another setter took over): the job is retried by the owner. */
export class NotOwnerError extends Error {
  constructor(token: number | null) {
    super(token === null ? 'not_owner: this process does not hold the lock of the hotkey' : `not_owner: the lock no longer carries fencing token ${token}; another setter owns the hotkey`);
    this.name = 'NotOwnerError';
  }
}

/**
 * One pass of DECISIONS §12: snapshot → metagraph → vector → commit-reveal and rate-limit gates →
 * `set_weights` → inclusion; every outcome is recorded for `/status`. A failure throws (the job fails
 * and, when it may pass, BullMQ retries it with backoff); nothing is ever set after a failed step.
 */
@Injectable()
export class WeightsPassService {
  /** While the coordinator does not answer (e.g. it is still starting): said once, not once per try. */
  private waitingForCoordinator = false;

  constructor(
    @Inject(WEIGHTS_CONFIG) private readonly config: WeightSetterConfig,
    @Inject(WEIGHTS_LOGGER) private readonly logger: Logger,
    @Inject(SUBTENSOR) private readonly chain: SubtensorPort,
    @Inject(VALIDATOR_KEYPAIR) private readonly keypair: KeyringPair,
    @Inject(CoordinatorClient) private readonly coordinator: CoordinatorClient,
    @Inject(OwnerLock) private readonly lock: OwnerLock,
    @Inject(PassStatusStore) private readonly status: PassStatusStore,
  ) {}

  async run(interval: number): Promise<WeightsPassDto> {
    const token = this.lock.token;
    if (token === null) throw new NotOwnerError(null);
    let snapshot: RewardSnapshotDto | null = null;
    let vector: WeightVector | null = null;
    try {
      snapshot = await this.fetchSnapshot();
      if (this.waitingForCoordinator) this.logger.info({ interval }, 'coordinator answers');
      this.waitingForCoordinator = false;
      const netuid = this.config.chain.netuid;
      const hotkeys = await this.chain.metagraphHotkeys(netuid);
      const ownUid = hotkeys.indexOf(this.keypair.address);
      vector = this.compute(snapshot, hotkeys);
      if (this.config.dryRun) {
        this.logger.info({ interval, weights: vector.entries, version_key: vector.versionKey }, 'weights: dry run, not submitted');
        return await this.finish(WeightsPassOutcome.DryRun, null, snapshot, vector, null, null);
      }
      if (await this.chain.commitRevealWeightsEnabled(netuid)) {
        throw new PassFailedError(
          `commit_reveal_unsupported: commit-reveal is on for netuid ${netuid}, so the chain refuses set_weights; this setter does not commit timelocked weights`,
          false,
        );
      }
      if (ownUid < 0) throw new PassFailedError(`not_registered: the validator hotkey ${this.keypair.address} holds no uid on netuid ${netuid}`, false);
      const [block, lastUpdate, rateLimit] = await Promise.all([this.chain.latestBlock(), this.chain.lastUpdate(netuid), this.chain.weightsSetRateLimit(netuid)]);
      const spacing = Math.max(MIN_BLOCKS_BETWEEN_SETS, rateLimit);
      const last = lastUpdate[ownUid] ?? 0;
      // LastUpdate 0: this uid never set weights (no real chain sets weights in its genesis block).
      if (last !== 0 && block - last <= spacing) {
        const next = last + spacing + 1;
        return await this.finish(WeightsPassOutcome.Skipped, `rate_limited: weights were set at block ${last}; the next set is allowed at block ${next} (now ${block})`, snapshot, vector, null, next);
      }
      if (!(await this.lock.holds(token))) throw new NotOwnerError(token);
      const inclusion = await this.chain.setWeights(this.keypair, {
        netuid,
        uids: vector.entries.map((e) => e.uid),
        values: vector.entries.map((e) => e.value),
        versionKey: vector.versionKey,
      });
      this.logger.info({ interval, tx_hash: inclusion.txHash, block: inclusion.block, weights: vector.entries }, 'weights set');
      return await this.finish(WeightsPassOutcome.Set, null, snapshot, vector, inclusion, inclusion.block + spacing + 1);
    } catch (error) {
      // Fenced out: the owner's retry of this job runs the pass; this process records nothing over the owner's status.
      if (error instanceof NotOwnerError) throw error;
      const failure = classify(error);
      if (failure.coordinatorUnreachable) {
        if (!this.waitingForCoordinator) this.logger.info({ interval, reason: failure.reason }, `waiting for the coordinator at ${this.config.coordinatorUrl}`);
        else this.logger.debug({ interval, reason: failure.reason }, 'weights pass failed: coordinator still unreachable');
        this.waitingForCoordinator = true;
      } else {
        this.logger.warn({ interval, reason: failure.reason, retry: failure.retry }, 'weights pass failed');
      }
      await this.finish(WeightsPassOutcome.Failed, failure.reason, snapshot, vector, null, null);
      // A failure no retry can mend (policy, commit-reveal, registration) is not retried.
      throw failure.retry ? failure : new UnrecoverableError(failure.reason);
    }
  }

  private async fetchSnapshot(): Promise<RewardSnapshotDto> {
    try {
      return await this.coordinator.rewardSnapshot();
    } catch (error) {
      if (error instanceof ServiceUnreachableError || error instanceof ServiceAnswerError || error instanceof InvalidResponseError) {
        throw new PassFailedError(`snapshot_unavailable: ${error.message}`, true, error instanceof ServiceUnreachableError);
      }
      throw error;
    }
  }

  private compute(snapshot: RewardSnapshotDto, hotkeys: string[]): WeightVector {
    try {
      return computeWeightVector(snapshot, hotkeys);
    } catch (error) {
      if (error instanceof WeightVectorError) throw new PassFailedError(`${error.code}: ${error.message}`, false);
      throw error;
    }
  }

  private async finish(
    outcome: WeightsPassOutcome,
    reason: string | null,
    snapshot: RewardSnapshotDto | null,
    vector: WeightVector | null,
    inclusion: { txHash: string; block: number } | null,
    nextAllowedBlock: number | null,
  ): Promise<WeightsPassDto> {
    const pass: WeightsPassDto = {
      at: new Date().toISOString(),
      outcome,
      reason,
      mode: snapshot?.reward_policy.validator_weights.mode ?? null,
      snapshot_generated_at: snapshot?.generated_at ?? null,
      weights: vector?.entries ?? [],
      tx_hash: inclusion?.txHash ?? null,
      block: inclusion?.block ?? null,
    };
    await this.status.record(pass, nextAllowedBlock);
    return pass;
  }
}

function classify(error: unknown): PassFailedError {
  if (error instanceof PassFailedError) return error;
  if (error instanceof ExtrinsicFailedError) return new PassFailedError(`extrinsic_failed: ${error.message}${error.txHash ? ` (tx ${error.txHash})` : ''}`, true);
  if (error instanceof ChainUnavailableError) return new PassFailedError(`chain_unavailable: ${error.message}`, true);
  return new PassFailedError(`internal_error: ${error instanceof Error ? error.message : String(error)}`, true);
}
