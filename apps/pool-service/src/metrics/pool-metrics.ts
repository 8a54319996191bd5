import { Global, Injectable, Module } from '@nestjs/common';
import type { Counter } from 'prom-client';
import { AppMetrics } from '@rcs/http';
import { EpochPublished, OnPoolEvent } from '../events/pool-events';

/** The pool's domain counters (DECISIONS §14); epochs, verifications and SOTA changes come from the domain events. */
@Injectable()
export class PoolMetrics {
  // Built from the constructor's registry (field initialisers would run before it is assigned).
  readonly epochs: Counter<'publication'>;
  readonly resultsVerified: Counter;
  readonly sotaChanges: Counter;
  readonly claimsSimulated: Counter;
  /** Not an event (nothing committed): the snapshot intake counts its refusals itself. */
  readonly snapshotsRefused: Counter;

  constructor(metrics: AppMetrics) {
    this.epochs = metrics.counter({
      name: 'pool_epochs_total',
      help: 'Epochs by what happened to them: `stored` (rolled over) or `published` (on chain).',
      labelNames: ['publication'],
    });
    this.resultsVerified = metrics.counter({ name: 'pool_results_verified_total', help: 'Pending results a validator verified.' });
    this.sotaChanges = metrics.counter({ name: 'pool_sota_changes_total', help: 'Times a verified result raised its task type\'s SOTA threshold.' });
    this.claimsSimulated = metrics.counter({ name: 'pool_claims_simulated_total', help: 'Simulated claims the contract paid (CLAIM_SIMULATION).' });
    this.snapshotsRefused = metrics.counter({ name: 'pool_snapshots_refused_total', help: 'Rollovers failed on a reward snapshot the contract refuses (no epoch stored).' });
  }

  @OnPoolEvent('epoch.published')
  countEpoch(event: EpochPublished): void {
    this.epochs.inc({ publication: event.publication === 'published' ? 'published' : 'stored' });
  }

  @OnPoolEvent('result.verified')
  countVerified(): void {
    this.resultsVerified.inc();
  }

  @OnPoolEvent('sota.changed')
  countSotaChange(): void {
    this.sotaChanges.inc();
  }

  @OnPoolEvent('claim.simulated')
  countSimulatedClaim(): void {
    this.claimsSimulated.inc();
  }
}

/** `PoolMetrics`, injectable by every domain module. */
@Global()
@Module({ providers: [PoolMetrics], exports: [PoolMetrics] })
export class PoolMetricsModule {}
