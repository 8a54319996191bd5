import { QueueEvents } from 'bullmq';
import { QueueName } from '@rcs/contracts';
import { queueKeyPrefix, redisOptionsFromUrl } from '@rcs/queue';
import { CoordinatorHarness } from '../harness';

/** The events of `h`'s rewards queue, where reward snapshot rebuilds run; ready once it resolves. */
export async function rewardsQueueEvents(h: CoordinatorHarness): Promise<QueueEvents> {
  const events = new QueueEvents(QueueName.Rewards, { connection: redisOptionsFromUrl(h.redis.url), prefix: queueKeyPrefix(`${h.redis.prefix}:coordinator`, QueueName.Rewards) });
  await events.waitUntilReady();
  return events;
}

/** The next rebuild to finish: `done` resolves when one completes and rejects when one fails for good; `cancel` stops listening. */
export function nextRebuild(events: QueueEvents): { done: Promise<void>; cancel: () => void } {
  let cancel = (): void => undefined;
  const done = new Promise<void>((resolve, reject) => {
    const onCompleted = (): void => {
      cancel();
      resolve();
    };
    const onFailed = (failure: { jobId: string; failedReason: string }): void => {
      cancel();
      reject(new RebuildFailedError(`${failure.jobId}: ${failure.failedReason}`));
    };
    cancel = () => {
      events.off('completed', onCompleted);
      events.off('failed', onFailed);
    };
    events.on('completed', onCompleted);
    events.on('failed', onFailed);
  });
  return { done, cancel };
}

export class RebuildFailedError extends Error {
  constructor(detail: string) {
    super(`a reward snapshot rebuild failed: ${detail}`);
    this.name = 'RebuildFailedError';
  }
}
