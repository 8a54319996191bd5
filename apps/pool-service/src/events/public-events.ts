import { Injectable } from '@nestjs/common';
import { EventStream, wirePayload } from '@rcs/http';
import { EpochPublished, OnPoolEvent, ResultVerified, SotaChanged } from './pool-events';

/** The pool's public event names (DECISIONS §14), with the payload each carries. */
export const POOL_EVENTS = [
  '- `epoch_published`: `{epoch, root, leaf_count, total_amount, publication, published_block}` — an epoch was stored (`publication` `pending`) or published on chain (`published`).',
  '- `result_verified`: `{result_id, task_type, miner_hotkey, score, verified_at}` — a validator verified a pending result.',
  '- `sota_changed`: `{task_type, sota_threshold, result_id}` — a verified result raised its task type\'s SOTA threshold.',
];

/** Publishes the pool's domain events to its public event stream, after their transaction committed. */
@Injectable()
export class PublicEvents {
  constructor(private readonly stream: EventStream) {}

  @OnPoolEvent('epoch.published')
  epochPublished(event: EpochPublished): void {
    void this.stream.publish('epoch_published', wirePayload(event, ['epoch', 'root', 'leafCount', 'totalAmount', 'publication', 'publishedBlock']));
  }

  @OnPoolEvent('result.verified')
  resultVerified(event: ResultVerified): void {
    void this.stream.publish('result_verified', wirePayload(event, ['resultId', 'taskType', 'minerHotkey', 'score', 'verifiedAt']));
  }

  @OnPoolEvent('sota.changed')
  sotaChanged(event: SotaChanged): void {
    void this.stream.publish('sota_changed', wirePayload(event, ['taskType', 'sotaThreshold', 'resultId']));
  }
}
