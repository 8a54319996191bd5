import { Injectable } from '@nestjs/common';
import type { Counter } from 'prom-client';
import { AppMetrics } from '@rcs/http';
import { LeasesExpired, OnDomainEvent, SubmissionDecided } from '../events/domain-events';

/** The coordinator's domain counters (DECISIONS §14), each counted by a subscriber of its domain event. */
@Injectable()
export class CoordinatorMetrics {
  // Built from the constructor's registry (field initialisers would run before it is assigned).
  readonly submissions: Counter;
  readonly decisions: Counter<'status'>;
  readonly bestChanges: Counter;
  readonly leasesExpired: Counter<'result'>;
  readonly snapshots: Counter;

  constructor(metrics: AppMetrics) {
    this.submissions = metrics.counter({ name: 'coordinator_submissions_total', help: 'Submissions accepted for verification (pending_verification).' });
    this.decisions = metrics.counter({ name: 'coordinator_decisions_total', help: 'Submissions decided, by the status they got.', labelNames: ['status'] });
    this.bestChanges = metrics.counter({ name: 'coordinator_best_changes_total', help: 'Times a task got a new best result.' });
    this.leasesExpired = metrics.counter({
      name: 'coordinator_leases_expired_total',
      help: 'Validator-job leases that expired: `returned` to the pool, or `exhausted` (the submission ended in error).',
      labelNames: ['result'],
    });
    this.snapshots = metrics.counter({ name: 'coordinator_snapshots_rebuilt_total', help: 'Reward snapshots built and stored.' });
  }

  @OnDomainEvent('submission.created')
  countSubmission(): void {
    this.submissions.inc();
  }

  @OnDomainEvent('leases.expired')
  countExpiredLeases(event: LeasesExpired): void {
    this.leasesExpired.inc({ result: 'returned' }, event.returned);
    this.leasesExpired.inc({ result: 'exhausted' }, event.exhausted);
  }

  @OnDomainEvent('submission.decided')
  countDecision(event: SubmissionDecided): void {
    this.decisions.inc({ status: event.status });
  }

  @OnDomainEvent('best.changed')
  countBestChange(): void {
    this.bestChanges.inc();
  }

  @OnDomainEvent('snapshot.rebuilt')
  countSnapshot(): void {
    this.snapshots.inc();
  }
}
