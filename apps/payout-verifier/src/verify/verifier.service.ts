import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { KeyringPair } from '@polkadot/keyring/types';
import { CLAIM_CONTRACT_PORT, errorText, type ClaimContractPort, type ContractEpoch } from '@rcs/chain';
import { DataSource } from 'typeorm';
import type { PayoutVerifierConfig } from '../config/config';
import { RecordVerdictsRepository, VerdictsRepository } from '../verdicts/verdicts.module';
import { ChallengerService } from './challenger.service';
import { evidenceDocument, evidenceHash } from './evidence';
import { InputUnavailableError, VerifierInputs } from './inputs';
import { readAllocation, stageJudgement, sha256Hex, type ContractView, type Mismatch, type PreviousEpoch, type Verified } from './recompute';
import { judgedVerdict, recordKey, rememberVerdict, type RecipientRecord } from './recipient-rule';
import { prejudgeRecords } from './signature-pool';
import { VERIFIER_CONFIG, VERIFIER_INPUTS, VERIFIER_KEYPAIR } from './tokens';

export interface PassSummary {
  /** Epochs judged by this pass, by result. */
  judged: { epoch: number; result: 'verified' | 'mismatch' | 'unverified'; check: string | null }[];
  /** Challenges included by this pass. */
  challenged: number;
  /** Why the pass stopped early (an input or the chain could not be read, or the app began to close), or null. */
  error: string | null;
}

const EMPTY_PREVIOUS: PreviousEpoch = { epoch: null, cumulative: new Map(), carriedOver: 0n };

/** A pass's error when the app began to close during it (or before it started). */
const STOPPING = 'the verifier is stopping';

/**
 * The verifier's pass (DECISIONS.md §16): follows the contract's published epochs oldest unjudged
 * first (`VERIFIER_BOOTSTRAP=history`, or from the newest at a first start with `latest`), judges each
 * from its inputs, records `verified | mismatch | unverified` with the evidence of a mismatch in one
 * statement, and has the challenger send what is pending. A judged epoch is never judged again; an
 * `unverified` one stops the pass (its successors add to it) and is retried by the next.
 */
@Injectable()
export class VerifierService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('Verifier');
  private running: Promise<PassSummary> | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** Set when the app begins to close: no pass starts, and a read cut short says nothing about its epoch. */
  private stopping = false;
  last: { at: Date; summary: PassSummary } | null = null;

  constructor(
    @Inject(CLAIM_CONTRACT_PORT) private readonly contract: ClaimContractPort,
    @Inject(VERIFIER_INPUTS) private readonly inputs: VerifierInputs,
    @Inject(VERIFIER_CONFIG) private readonly config: PayoutVerifierConfig,
    @Inject(VERIFIER_KEYPAIR) private readonly keypair: KeyringPair,
    private readonly verdicts: VerdictsRepository,
    private readonly records: RecordVerdictsRepository,
    private readonly challenger: ChallengerService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.intervalSeconds === 0) return;
    this.timer = setInterval(() => void this.pass(), this.config.intervalSeconds * 1000);
  }

  async onModuleDestroy(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearInterval(this.timer);
    // A read in flight ends now rather than at its timeout; the pass it belongs to records nothing more.
    this.inputs.stop();
    await this.running?.catch(() => undefined);
  }

  /** One pass; a pass asked for while one runs waits for it and runs after it (passes never overlap). */
  pass(): Promise<PassSummary> {
    const previous = this.running ?? Promise.resolve(null);
    const next = previous
      .catch(() => null)
      .then(() => this.runPass())
      .then((summary) => {
        this.last = { at: new Date(), summary };
        return summary;
      });
    this.running = next;
    return next;
  }

  private async runPass(): Promise<PassSummary> {
    const summary: PassSummary = { judged: [], challenged: 0, error: null };
    if (!this.stopping) {
      try {
        await this.judgePublished(summary);
      } catch (error) {
        summary.error = errorText(error);
        this.logger.warn(`Pass stopped: ${summary.error}`);
      }
    }
    // The app began to close (before or during the pass): no challenge is sent.
    if (this.stopping) return { ...summary, error: summary.error ?? STOPPING };
    try {
      summary.challenged = await this.challenger.challengePending();
    } catch (error) {
      summary.error ??= errorText(error);
    }
    return summary;
  }

  private async judgePublished(summary: PassSummary): Promise<void> {
    const manager = this.dataSource.manager;
    const latest = await this.contract.latestPublishedEpoch();
    if (latest === null) return;
    const listed = await this.inputs.poolEpochs().catch((error: unknown) => {
      if (error instanceof InputUnavailableError) return [] as number[];
      throw error;
    });
    const candidates = [...new Set([...listed.filter((e) => e <= latest), latest])].sort((a, b) => a - b);
    // `latest`: the first start begins at the newest epoch, and later passes never go below where it began.
    const start = this.config.bootstrap === 'history' ? -1 : ((await this.verdicts.oldest(manager)) ?? latest);
    let previous: number | null = null;
    for (const epoch of candidates) {
      const verdict = await this.verdicts.find(manager, epoch);
      if (verdict !== null && verdict.result !== 'unverified') {
        previous = epoch;
        continue;
      }
      const info = await this.contract.epochInfo(epoch);
      if (info === null) continue; // stored by the pool, never published
      if (epoch < start) {
        previous = epoch;
        continue;
      }
      const result = await this.judge(epoch, info, previous);
      if (result === null) return; // the app is closing
      summary.judged.push(result);
      if (result.result === 'unverified') {
        summary.error = `epoch ${epoch}: ${result.check ?? 'input'} unavailable`;
        return;
      }
      previous = epoch;
    }
  }

  /**
   * Judges one published epoch and records the verdict; an input it cannot read makes it `unverified`. Null when
   * the app began to close meanwhile: a read cut short then (by this app, or by a service stopping beside it, as
   * `npm start`'s Ctrl-C stops them all) says nothing of the input, so nothing is recorded and the next start judges it.
   */
  private async judge(epoch: number, info: ContractEpoch, previousEpoch: number | null): Promise<PassSummary['judged'][number] | null> {
    const manager = this.dataSource.manager;
    const contract: ContractView = { root: info.root, numOfLeaves: info.numOfLeaves, totalRao: info.totalRao };
    try {
      const { allocation_uri: uri } = await this.inputs.epochRecord(epoch);
      const bytes = await this.inputs.allocation(uri);
      const document = readAllocation(epoch, uri, bytes);
      let outcome: Verified | Mismatch;
      let snapshotSha256: string | null = null;
      if ('result' in document) outcome = document;
      else {
        snapshotSha256 = document.snapshot_sha256;
        const snapshot = snapshotSha256 === null ? null : await this.inputs.snapshot(snapshotSha256);
        const previous = await this.previousOf(previousEpoch);
        const recipients = await this.inputs.recipientHistories(document.entries.map((entry) => entry.hotkey));
        // The signatures are checked on worker threads while this thread runs every other check.
        const signatures = await this.judgeRecords(recipients);
        const staged = stageJudgement({ epoch, document, snapshot, previous, recipients, contract });
        await signatures.done;
        outcome = staged.finish();
      }
      const allocationSha256 = sha256Hex(bytes);
      if (outcome.result === 'verified') {
        await this.verdicts.recordFinal(manager, {
          epoch,
          result: 'verified',
          check: null,
          detail: null,
          allocationSha256,
          snapshotSha256,
          cumulative: Object.fromEntries([...outcome.cumulative].map(([hotkey, amount]) => [hotkey, amount.toString()])),
          carriedOver: outcome.carriedOver.toString(),
          evidence: null,
          evidenceHash: null,
        });
        this.logger.log(`Epoch ${epoch}: verified (${contract.numOfLeaves} leaves, root ${contract.root})`);
        return { epoch, result: 'verified', check: null };
      }
      const evidence = evidenceDocument(epoch, outcome, { allocationUri: uri, allocationSha256, snapshotSha256, previousEpoch, contract }, this.keypair.address, new Date());
      const hash = evidenceHash(evidence);
      await this.verdicts.recordFinal(manager, {
        epoch,
        result: 'mismatch',
        check: outcome.check,
        detail: outcome.message,
        allocationSha256,
        snapshotSha256,
        cumulative: null,
        carriedOver: null,
        evidence,
        evidenceHash: hash,
      });
      this.logger.warn(`Epoch ${epoch}: mismatch (check ${outcome.check}): ${outcome.message}; evidence ${hash}`);
      return { epoch, result: 'mismatch', check: outcome.check };
    } catch (error) {
      if (!(error instanceof InputUnavailableError)) throw error;
      if (this.stopping) {
        this.logger.log(`Epoch ${epoch}: not judged, the verifier is stopping (${error.input}: ${error.message})`);
        return null;
      }
      await this.verdicts.recordUnverified(manager, epoch, error.input, error.message);
      this.logger.warn(`Epoch ${epoch}: unverified (${error.input} unavailable: ${error.message}); retried next pass`);
      return { epoch, result: 'unverified', check: error.input };
    }
  }

  /**
   * What the epoch adds to: a verified previous epoch's recorded cumulative; otherwise (a mismatch, or
   * an epoch before a `latest` bootstrap) its published allocation, read and hash-checked as any input.
   */
  /**
   * Every recipient record of the epoch judged before the epoch is: a verdict stored by an earlier run is
   * read back, the others are checked (on worker threads when many) and stored, so a restart does not
   * check the same signature again. Answers once the checks have started: the promise it answers settles
   * when they are done and stored.
   */
  private async judgeRecords(recipients: ReadonlyMap<string, readonly RecipientRecord[]>): Promise<{ done: Promise<void> }> {
    const keys = [...recipients].flatMap(([hotkey, records]) => records.map((record) => recordKey(hotkey, record))).filter((key) => judgedVerdict(key) === undefined);
    for (const [key, valid] of await this.records.known(this.dataSource.manager, keys)) rememberVerdict(key, valid);
    const checked = prejudgeRecords(recipients);
    return { done: checked.then((verdicts) => this.records.remember(this.dataSource.manager, verdicts)) };
  }

  private async previousOf(epoch: number | null): Promise<PreviousEpoch> {
    if (epoch === null) return EMPTY_PREVIOUS;
    const verdict = await this.verdicts.find(this.dataSource.manager, epoch);
    if (verdict?.result === 'verified' && verdict.cumulative !== null && verdict.carriedOver !== null) {
      return { epoch, cumulative: new Map(Object.entries(verdict.cumulative).map(([hotkey, amount]) => [hotkey, BigInt(amount)])), carriedOver: BigInt(verdict.carriedOver) };
    }
    const { allocation_uri: uri } = await this.inputs.epochRecord(epoch);
    const document = readAllocation(epoch, uri, await this.inputs.allocation(uri));
    if ('result' in document) throw new InputUnavailableError('previous_allocation', `epoch ${epoch}'s allocation fails ${document.check}: ${document.message}`);
    return { epoch, cumulative: new Map(document.entries.map((entry) => [entry.hotkey, BigInt(entry.cumulative)])), carriedOver: BigInt(document.carried_over) };
  }
}
