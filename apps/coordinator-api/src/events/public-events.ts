import { Injectable } from '@nestjs/common';
import { EventStream } from '@rcs/http';
import { BestChanged, OnDomainEvent, SnapshotRebuilt, SubmissionDecided, TaskStateChanged } from './domain-events';

/** The coordinator's public event names (DECISIONS §14), with the payload each carries. */
export const COORDINATOR_EVENTS_DESCRIPTION = [
  'Server-Sent Events, public. Each event has `id:` (its Redis stream id), `event:` (its name) and `data:` (one JSON object).',
  'Reconnect with the `Last-Event-ID` header (EventSource does it by itself) to get exactly the events after that id, in order,',
  'as long as they are still within the stream bound (`EVENTS_MAX_LENGTH`); without it, events from now on. A `: heartbeat` comment keeps idle connections open.',
  '',
  '- `decision`: `{task_id, task_slug, submission_id, miner_hotkey, status, metric_name, verified_metric_value, decided_at}` — a submission was accepted, rejected or errored.',
  '- `best_changed`: `{task_id, task_slug, submission_id, miner_hotkey, metric_name, metric_value, secondary_metric_value, previous_submission_id, previous_metric_value, changed_at}` — a task has a new best result.',
  '- `task_state`: `{task_id, previous_state, state}` — a task was created (`previous_state` null) or changed state.',
  '- `snapshot_rebuilt`: `{generated_at, bytes}` — a new reward snapshot is served.',
].join('\n');

/** Publishes the domain events the public may see to the event stream, after their transaction committed. */
@Injectable()
export class PublicEvents {
  constructor(private readonly stream: EventStream) {}

  @OnDomainEvent('submission.decided')
  decision(event: SubmissionDecided): void {
    void this.stream.publish('decision', {
      task_id: event.taskId,
      task_slug: event.taskSlug,
      submission_id: event.submissionId,
      miner_hotkey: event.minerHotkey,
      status: event.status,
      metric_name: event.metricName,
      verified_metric_value: event.verifiedMetricValue,
      decided_at: event.decidedAt.toISOString(),
    });
  }

  @OnDomainEvent('best.changed')
  bestChanged(event: BestChanged): void {
    void this.stream.publish('best_changed', {
      task_id: event.taskId,
      task_slug: event.taskSlug,
      submission_id: event.submissionId,
      miner_hotkey: event.minerHotkey,
      metric_name: event.metricName,
      metric_value: event.metricValue,
      secondary_metric_value: event.secondaryMetricValue,
      previous_submission_id: event.previousSubmissionId,
      previous_metric_value: event.previousMetricValue,
      changed_at: event.changedAt.toISOString(),
    });
  }

  @OnDomainEvent('task.state_changed')
  taskState(event: TaskStateChanged): void {
    void this.stream.publish('task_state', { task_id: event.taskId, previous_state: event.previousState, state: event.state });
  }

  @OnDomainEvent('snapshot.rebuilt')
  snapshotRebuilt(event: SnapshotRebuilt): void {
    void this.stream.publish('snapshot_rebuilt', { generated_at: event.generatedAt, bytes: event.bytes });
  }
}
