import { Injectable } from '@nestjs/common';
import { EventStream, wirePayload, type WirePayload } from '@rcs/http';
import { BestChanged, ExposureChanged, OnDomainEvent, SnapshotRebuilt, SubmissionDecided, TaskStateChanged } from './domain-events';

/** The coordinator's public event names (DECISIONS §14), with the payload each carries. */
export const COORDINATOR_EVENTS = [
  '- `decision`: `{task_id, task_slug, submission_id, miner_hotkey, status, metric_name, verified_metric_value, decided_at}` — a submission was accepted, rejected or errored.',
  '- `best_changed`: `{task_id, task_slug, submission_id, miner_hotkey, metric_name, metric_value, secondary_metric_value, previous_submission_id, previous_metric_value, changed_at}` — a task has a new best result.',
  '- `task_state`: `{task_id, previous_state, state}` — a task was created (`previous_state` null) or changed state.',
  '- `exposure_changed`: `{task_id, task_slug, shard_seq, spent_bits, budget_bits, releases, status, rotated}` — a budgeted task released a result, rotated to its next held-out shard, or ran out of shards (DECISIONS §17).',
  '- `snapshot_rebuilt`: `{generated_at, bytes}` — a new reward snapshot is served.',
];

/**
 * What the public sees of a decided submission: the live `decision` event and the dashboard's recent
 * decisions carry these fields of `SubmissionDecided`, in this order (snake_case on the wire).
 */
export const PUBLIC_DECISION_FIELDS = ['taskId', 'taskSlug', 'submissionId', 'minerHotkey', 'status', 'metricName', 'verifiedMetricValue', 'decidedAt'] as const;

/** A decided submission as the public reads it (`decision` event, `DashboardDto.recent_decisions`). */
export function toPublicDecision(decision: SubmissionDecided): WirePayload<Pick<SubmissionDecided, (typeof PUBLIC_DECISION_FIELDS)[number]>> {
  return wirePayload(decision, PUBLIC_DECISION_FIELDS);
}

/** Publishes the domain events the public may see to the event stream, after their transaction committed. */
@Injectable()
export class PublicEvents {
  constructor(private readonly stream: EventStream) {}

  @OnDomainEvent('submission.decided')
  decision(event: SubmissionDecided): void {
    void this.stream.publish('decision', toPublicDecision(event));
  }

  @OnDomainEvent('best.changed')
  bestChanged(event: BestChanged): void {
    const fields = ['taskId', 'taskSlug', 'submissionId', 'minerHotkey', 'metricName', 'metricValue', 'secondaryMetricValue'] as const;
    void this.stream.publish('best_changed', wirePayload(event, [...fields, 'previousSubmissionId', 'previousMetricValue', 'changedAt']));
  }

  @OnDomainEvent('task.state_changed')
  taskState(event: TaskStateChanged): void {
    void this.stream.publish('task_state', wirePayload(event, ['taskId', 'previousState', 'state']));
  }

  @OnDomainEvent('exposure.changed')
  exposureChanged(event: ExposureChanged): void {
    void this.stream.publish('exposure_changed', wirePayload(event, ['taskId', 'taskSlug', 'shardSeq', 'spentBits', 'budgetBits', 'releases', 'status', 'rotated']));
  }

  @OnDomainEvent('snapshot.rebuilt')
  snapshotRebuilt(event: SnapshotRebuilt): void {
    void this.stream.publish('snapshot_rebuilt', wirePayload(event, ['generatedAt', 'bytes']));
  }
}
