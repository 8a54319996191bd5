import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { KeyringPair } from '@polkadot/keyring/types';
import { CLAIM_CONTRACT_PORT, errorText, type ClaimContractPort } from '@rcs/chain';
import { AppMetrics, type ReadinessCheck } from '@rcs/http';
import { databaseReady } from '@rcs/persistence';
import { DataSource } from 'typeorm';
import type { PayoutVerifierConfig } from '../config/config';
import { VerdictsRepository } from '../verdicts/verdicts.module';
import { VERIFIER_CONFIG, VERIFIER_KEYPAIR } from '../verify/tokens';
import { VerifierService } from '../verify/verifier.service';

const RECENT = 20;

/** What the verifier says about itself: `/status`, `/readyz` and its metrics, read from its own database. */
@Injectable()
export class StatusService implements OnModuleInit {
  constructor(
    private readonly metrics: AppMetrics,
    private readonly verdicts: VerdictsRepository,
    private readonly verifier: VerifierService,
    @Inject(CLAIM_CONTRACT_PORT) private readonly contract: ClaimContractPort,
    @Inject(VERIFIER_KEYPAIR) private readonly keypair: KeyringPair,
    @Inject(VERIFIER_CONFIG) private readonly config: PayoutVerifierConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** `payout_epochs_verified_total{result}` (`unverified` counts attempts) and `payout_challenges_total`, read at scrape time. */
  onModuleInit(): void {
    const counts = () => this.verdicts.counts(this.dataSource.manager);
    this.metrics.counter({
      name: 'payout_epochs_verified_total',
      help: 'Published payout epochs judged, by result (unverified: attempts that could not read an input).',
      labelNames: ['result'],
      async collect() {
        const c = await counts();
        this.reset();
        this.inc({ result: 'verified' }, c.verified);
        this.inc({ result: 'mismatch' }, c.mismatch);
        this.inc({ result: 'unverified' }, c.unverifiedAttempts);
      },
    });
    this.metrics.counter({
      name: 'payout_challenges_total',
      help: 'challenge_epoch calls included on the contract.',
      async collect() {
        const c = await counts();
        this.reset();
        this.inc(c.challenges);
      },
    });
  }

  async status(): Promise<Record<string, unknown>> {
    const manager = this.dataSource.manager;
    const [counts, recent] = await Promise.all([this.verdicts.counts(manager), this.verdicts.recent(manager, RECENT)]);
    const last = this.verifier.last;
    return {
      verifier: this.keypair.address,
      bootstrap: this.config.bootstrap,
      epochs: { verified: counts.verified, mismatch: counts.mismatch, unverified: counts.unverified },
      challenges: counts.challenges,
      last_pass: last === null ? null : { at: last.at.toISOString(), judged: last.summary.judged, challenged: last.summary.challenged, error: last.summary.error },
      recent: recent.map((v) => ({
        epoch: v.epoch,
        result: v.result,
        check: v.check,
        detail: v.detail,
        challenge: v.challenge,
        challenge_block: v.challengeBlock,
        evidence_hash: v.evidenceHash,
        judged_at: v.judgedAt.toISOString(),
      })),
    };
  }

  async checks(): Promise<{ database: ReadinessCheck; chain: ReadinessCheck }> {
    const chain = this.contract
      .latestPublishedEpoch()
      .then((): ReadinessCheck => ({ ok: true }))
      .catch((error: unknown): ReadinessCheck => ({ ok: false, error: errorText(error) }));
    const [database, chainCheck] = await Promise.all([databaseReady(this.dataSource), chain]);
    return { database, chain: chainCheck };
  }

  /** The evidence of a mismatch, byte for byte; null when the epoch has none. */
  async evidence(epoch: number): Promise<string | null> {
    return (await this.verdicts.find(this.dataSource.manager, epoch))?.evidence ?? null;
  }
}
