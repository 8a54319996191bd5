import { Injectable } from '@nestjs/common';
import { EventStream } from '@rcs/http';
import { EpochPublished, OnPoolEvent, ResultVerified, SotaChanged } from './pool-events';

/** The pool's public event names (DECISIONS §14), with the payload each carries. */
export const POOL_EVENTS_DESCRIPTION = [
  'Server-Sent Events, public. Each event has `id:` (its Redis stream id), `event:` (its name) and `data:` (one JSON object).',
  'Reconnect with the `Last-Event-ID` header (EventSource does it by itself) to get exactly the events after that id, in order,',
  'as long as they are still within the stream bound (`EVENTS_MAX_LENGTH`); without it, events from now on. A `: heartbeat` comment keeps idle connections open.',
  '',
  '- `epoch_published`: `{epoch, root, leaf_count, total_amount, publication, published_block}` — an epoch was stored (`publication` `pending`) or published on chain (`published`).',
  '- `result_verified`: `{result_id, task_type, miner_hotkey, score, verified_at}` — a validator verified a pending result.',
  '- `sota_changed`: `{task_type, sota_threshold, result_id}` — a verified result raised its task type\'s SOTA threshold.',
].join('\n');

/** Publishes the pool's domain events to its public event stream, after their transaction committed. */
@Injectable()
export class PublicEvents {
  constructor(private readonly stream: EventStream) {}

  @OnPoolEvent('epoch.published')
  epochPublished(event: EpochPublished): void {
    void this.stream.publish('epoch_published', {
      epoch: event.epoch,
      root: event.root,
      leaf_count: event.leafCount,
      total_amount: event.totalAmount,
      publication: event.publication,
      published_block: event.publishedBlock,
    });
  }

  @OnPoolEvent('result.verified')
  resultVerified(event: ResultVerified): void {
    void this.stream.publish('result_verified', {
      result_id: event.resultId,
      task_type: event.taskType,
      miner_hotkey: event.minerHotkey,
      score: event.score,
      verified_at: event.verifiedAt.toISOString(),
    });
  }

  @OnPoolEvent('sota.changed')
  sotaChanged(event: SotaChanged): void {
    void this.stream.publish('sota_changed', { task_type: event.taskType, sota_threshold: event.threshold, result_id: event.resultId });
  }
}
