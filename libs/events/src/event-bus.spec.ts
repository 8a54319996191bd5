import { Logger } from '@nestjs/common';
import { EventBus } from './event-bus';

interface TestEventMap {
  'epoch.published': { epoch: number };
  'sota.changed': { taskType: string };
}

class TestEvents extends EventBus<TestEventMap> {}

/** What the bus logged through Nest's `Logger.error`, without printing it. */
function loggedErrors(): { messages: unknown[]; restore: () => void } {
  const messages: unknown[] = [];
  const spy = jest.spyOn(Logger.prototype, 'error').mockImplementation((message: unknown) => messages.push(message));
  return { messages, restore: () => spy.mockRestore() };
}

describe('EventBus', () => {
  it('runs every handler of the event, in subscription order, synchronously with the emit', () => {
    const bus = new TestEvents();
    const seen: string[] = [];
    bus.on('epoch.published', (event) => seen.push(`first ${event.epoch}`));
    bus.on('epoch.published', (event) => seen.push(`second ${event.epoch}`));
    bus.on('sota.changed', (event) => seen.push(`sota ${event.taskType}`));

    bus.emit('epoch.published', { epoch: 7 });

    expect(seen).toEqual(['first 7', 'second 7']);
  });

  it('emits an event nobody handles without complaint', () => {
    expect(() => new TestEvents().emit('sota.changed', { taskType: 'x' })).not.toThrow();
  });

  it('logs a throwing handler, runs the next ones and never throws to the emitter', () => {
    const bus = new TestEvents();
    const seen: number[] = [];
    bus.on('epoch.published', () => {
      throw new RangeError('broken subscriber');
    });
    bus.on('epoch.published', (event) => seen.push(event.epoch));
    const log = loggedErrors();
    try {
      expect(() => bus.emit('epoch.published', { epoch: 3 })).not.toThrow();
    } finally {
      log.restore();
    }
    expect(seen).toEqual([3]);
    expect(log.messages).toEqual(['A epoch.published handler failed: broken subscriber']);
  });

  it('logs the rejection of a handler that returns a promise despite its type', async () => {
    const bus = new TestEvents();
    let rejected: Promise<void> = Promise.resolve();
    bus.on('sota.changed', () => {
      rejected = Promise.reject(new RangeError('late failure'));
      return rejected as unknown as void;
    });
    const log = loggedErrors();
    try {
      bus.emit('sota.changed', { taskType: 'x' });
      await rejected.catch(() => undefined);
    } finally {
      log.restore();
    }
    expect(log.messages).toEqual(['A sota.changed handler failed: late failure']);
  });
});
