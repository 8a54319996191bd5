import { Inject, Injectable } from '@nestjs/common';
import { UnrecoverableError } from 'bullmq';
import type { Logger } from 'pino';
import { u8aToHex } from '@polkadot/util';
import { ChainUnavailableError, ExtrinsicFailedError, MAX_UNREVEALED_COMMITS, revealSchedule, revealWindow, type WeightsRules } from '@rcs/chain';
import { CoordinatorClient, REWARD_SNAPSHOT_PATH, ServiceAnswerError, ServiceUnreachableError } from '@rcs/client';
import { WeightsPassOutcome, type WeightsCommitDto, type WeightsPassDto } from '@rcs/contracts';
import { encodeWeightsPayload, timelockEncrypt } from '@rcs/timelock';
import type { WeightSetterConfig } from '../config/config';
import { chainRuleViolation } from './chain-rules';
import { OwnerLock } from './owner-lock';
import { PassStatusStore, type PendingCommit } from './pass-status.store';
import { RevealWatchService } from './reveal-watch.service';
import { SetterIdentity } from './setter-identity';
import { WEIGHTS_CLOCK, WEIGHTS_CONFIG, WEIGHTS_LOGGER } from './tokens';
import type { SnapshotSummary } from './snapshot-digest';
import { SnapshotDigester } from './snapshot-worker';
import type { WeightVector } from './weight-vector';

/** Subtensor refuses a new vector until this many blocks passed since the last, whatever `WeightsSetRateLimit` says (DECISIONS §9). */
export const MIN_BLOCKS_BETWEEN_SETS = 100;

/** A pass that ended without weights on chain; `retry` says whether another attempt may fare better. */
export class PassFailedError extends Error {
  /** The pass logged "waiting for the coordinator" once itself: the queue adds no warning per pass (`isHandlerReported`). */
  readonly handlerReported: boolean;

  constructor(
    readonly reason: string,
    readonly retry: boolean,
    /** The coordinator did not answer at all (down, or still starting). */
    readonly coordinatorUnreachable = false,
  ) {
    super(reason);
    this.handlerReported = coordinatorUnreachable;
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
 * One pass of DECISIONS §12: snapshot → metagraph → vector → chain rules → rate limit → `set_weights`,
 * or with commit-reveal on `commit_timelocked_weights` → inclusion; every outcome is recorded for `/status`. A failure throws (the job fails
 * and, when it may pass, BullMQ retries it with backoff); nothing is ever set after a failed step.
 */
@Injectable()
export class WeightsPassService {
  /** While the coordinator does not answer (e.g. it is still starting): said once, not once per try. */
  private waitingForCoordinator = false;

  constructor(
    @Inject(WEIGHTS_CONFIG) private readonly config: WeightSetterConfig,
    @Inject(WEIGHTS_LOGGER) private readonly logger: Logger,
    @Inject(SetterIdentity) private readonly setter: SetterIdentity,
    @Inject(CoordinatorClient) private readonly coordinator: CoordinatorClient,
    @Inject(OwnerLock) private readonly lock: OwnerLock,
    @Inject(PassStatusStore) private readonly status: PassStatusStore,
    @Inject(RevealWatchService) private readonly reveals: RevealWatchService,
    @Inject(WEIGHTS_CLOCK) private readonly now: () => number,
    @Inject(SnapshotDigester) private readonly digester: SnapshotDigester,
  ) {}

  async run(interval: number): Promise<WeightsPassDto> {
    const token = this.lock.token;
    if (token === null) throw new NotOwnerError(null);
    let snapshot: SnapshotSummary | null = null;
    let vector: WeightVector | null = null;
    try {
      const bytes = await this.fetchSnapshot();
      if (this.waitingForCoordinator) this.logger.info({ interval }, 'coordinator answers');
      this.waitingForCoordinator = false;
      const { chain, keypair, netuid } = this.setter;
      const hotkeys = await chain.metagraphHotkeys(netuid);
      const ownUid = hotkeys.indexOf(keypair.address);
      // Parsing, checking and summing a snapshot of any size happens off the event loop, so /healthz and /status answer meanwhile.
      const digest = await this.digester.digest(bytes, hotkeys);
      if (digest.kind === 'invalid') throw new PassFailedError(`snapshot_unavailable: ${digest.message}`, true);
      snapshot = digest.summary;
      if (digest.kind === 'refused') throw new PassFailedError(`${digest.code}: ${digest.message}`, false);
      vector = digest.vector;
      const summary = digest.summary;
      if (this.setter.dryRun) {
        this.logger.info({ interval, weights: vector.entries, version_key: vector.versionKey }, 'weights: dry run, not submitted');
        return await this.finish(WeightsPassOutcome.DryRun, null, snapshot, vector, null, null);
      }
      if (ownUid < 0) throw new PassFailedError(`not_registered: the validator hotkey ${keypair.address} holds no uid on netuid ${netuid}`, false);
      const [block, lastUpdate, rules] = await Promise.all([chain.latestBlock(), chain.lastUpdate(netuid), chain.weightsRules(netuid)]);
      const violation = chainRuleViolation(vector, rules, ownUid);
      if (violation) throw new PassFailedError(`${violation.code}: ${violation.message}; refused, not sent`, false);
      const spacing = Math.max(MIN_BLOCKS_BETWEEN_SETS, rules.weightsSetRateLimit);
      if (rules.commitRevealEnabled) {
        // Settle a commit whose reveal is due first, so a revealed (or missed) one does not hold this pass back.
        await this.reveals.check();
        const pending = await this.status.pendingCommit();
        // A retry of the pass that committed (e.g. it failed while reporting) reports that commit, never a second one.
        if (pending?.interval === interval) return await this.finishCommitted(pending, summary, vector, spacing);
        // One commit in flight: the next waits for its reveal to be confirmed (or reported missed), so a reveal that never
        // comes cannot pile commits into the chain's cap of 10 per epoch.
        if (pending) {
          const reason = `reveal_pending: the commit of block ${pending.block} is expected revealed from block ${pending.reveal_block} (now ${block}); the next commit waits for it`;
          return await this.finish(WeightsPassOutcome.Skipped, reason, snapshot, vector, null, null);
        }
      }
      const last = lastUpdate[ownUid] ?? 0;
      // LastUpdate 0: this uid never set weights (no real chain sets weights in its genesis block).
      if (last !== 0 && block - last <= spacing) {
        const next = last + spacing + 1;
        return await this.finish(WeightsPassOutcome.Skipped, `rate_limited: weights were set at block ${last}; the next set is allowed at block ${next} (now ${block})`, snapshot, vector, null, next);
      }
      if (rules.commitRevealEnabled) return await this.commit(interval, token, block, ownUid, rules, summary, vector, spacing);
      if (!(await this.lock.holds(token))) throw new NotOwnerError(token);
      const inclusion = await chain.setWeights(keypair, {
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
      // A failure no retry can mend (policy, a chain rule, registration, the commit cap) is not retried.
      throw failure.retry ? failure : new UnrecoverableError(failure.reason);
    }
  }

  /**
   * Commit-reveal on (DECISIONS §12): the SCALE payload with the signer's public key, sealed to the round
   * whose pulse the chain holds when it reveals, sent as `commit_timelocked_weights` and remembered until
   * the reveal is confirmed (`RevealWatchService`).
   */
  private async commit(
    interval: number,
    token: number,
    block: number,
    ownUid: number,
    rules: WeightsRules,
    snapshot: SnapshotSummary,
    vector: WeightVector,
    spacing: number,
  ): Promise<WeightsPassDto> {
    const { chain, keypair, netuid } = this.setter;
    const [held, beacon] = await Promise.all([this.setter.heldCommits(), chain.drandBeacon()]);
    const schedule = revealSchedule(rules, { block, netuid, nowSeconds: this.now() / 1000, drand: beacon });
    // The chain counts per epoch; a commit near an epoch's end may land in the next, so the fullest of the two counts.
    const inEpoch = Math.max(...[schedule.epoch, schedule.epoch + 1].map((epoch) => held.filter((c) => c.epoch === epoch).length));
    if (inEpoch >= MAX_UNREVEALED_COMMITS) {
      throw new PassFailedError(`too_many_unrevealed_commits: the hotkey already holds ${inEpoch} unrevealed commits in epoch ${schedule.epoch} (the chain takes ${MAX_UNREVEALED_COMMITS}); nothing was committed`, false);
    }
    const payload = encodeWeightsPayload({
      hotkey: keypair.publicKey,
      uids: vector.entries.map((e) => e.uid),
      values: vector.entries.map((e) => e.value),
      versionKey: BigInt(vector.versionKey),
    });
    const ciphertext = timelockEncrypt(payload, schedule.revealRound, beacon.publicKey);
    if (!(await this.lock.holds(token))) throw new NotOwnerError(token);
    const inclusion = await chain.commitTimelockedWeights(keypair, {
      netuid,
      commit: ciphertext,
      revealRound: BigInt(schedule.revealRound),
      commitRevealVersion: rules.commitRevealVersion,
    });
    const window = revealWindow(rules, { block, netuid }, inclusion.block);
    const pending: PendingCommit = {
      interval,
      netuid,
      uid: ownUid,
      reveal_round: schedule.revealRound,
      reveal_block: window.revealBlock,
      reveal_deadline_block: window.revealDeadlineBlock,
      ciphertext: u8aToHex(ciphertext),
      tx_hash: inclusion.txHash,
      block: inclusion.block,
      weights: vector.entries,
    };
    await this.status.commitLanded(pending);
    this.logger.info(
      { interval, tx_hash: inclusion.txHash, block: inclusion.block, reveal_round: schedule.revealRound, reveal_block: window.revealBlock, weights: vector.entries },
      'weights committed (timelocked)',
    );
    return this.finishCommitted(pending, snapshot, vector, spacing);
  }

  private finishCommitted(pending: PendingCommit, snapshot: SnapshotSummary, vector: WeightVector, spacing: number): Promise<WeightsPassDto> {
    const commit = { reveal_round: pending.reveal_round, reveal_block: pending.reveal_block, ciphertext: pending.ciphertext, tx_hash: pending.tx_hash, block: pending.block };
    return this.finish(WeightsPassOutcome.Committed, null, snapshot, vector, { txHash: pending.tx_hash, block: pending.block }, pending.block + spacing + 1, commit);
  }

  /** The snapshot's bytes as served; read (parsed, checked, turned into a vector) by `SnapshotDigester`. */
  private async fetchSnapshot(): Promise<Uint8Array> {
    try {
      return await this.coordinator.http.bytes({ method: 'GET', path: REWARD_SNAPSHOT_PATH });
    } catch (error) {
      if (error instanceof ServiceUnreachableError || error instanceof ServiceAnswerError) {
        throw new PassFailedError(`snapshot_unavailable: ${error.message}`, true, error instanceof ServiceUnreachableError);
      }
      throw error;
    }
  }

  private async finish(
    outcome: WeightsPassOutcome,
    reason: string | null,
    snapshot: SnapshotSummary | null,
    vector: WeightVector | null,
    inclusion: { txHash: string; block: number } | null,
    nextAllowedBlock: number | null,
    commit: WeightsCommitDto | null = null,
  ): Promise<WeightsPassDto> {
    const pass: WeightsPassDto = {
      at: new Date().toISOString(),
      outcome,
      reason,
      mode: snapshot?.mode ?? null,
      snapshot_generated_at: snapshot?.generated_at ?? null,
      weights: vector?.entries ?? [],
      tx_hash: inclusion?.txHash ?? null,
      block: inclusion?.block ?? null,
      commit,
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
