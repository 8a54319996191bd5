import { Reflector } from '@nestjs/core';
import { OnEvent, onEventOf } from './on-event.decorator';

interface TestEventMap {
  'epoch.published': { epoch: number };
  'sota.changed': { taskType: string };
}

const OnTestEvent = onEventOf<TestEventMap>();

class Handlers {
  @OnTestEvent('epoch.published')
  published(event: { epoch: number }): void {
    void event;
  }

  // A handler may ignore the payload.
  @OnTestEvent('sota.changed')
  changed(): void {
    return undefined;
  }
}

// What must not compile (checked by the typecheck target, which includes this file):
class Mismatched {
  // @ts-expect-error the payload is not the event's
  @OnTestEvent('epoch.published')
  wrongPayload(event: { epoch: string }): void {
    void event;
  }

  // @ts-expect-error no such event in the map
  @OnTestEvent('epoch.stored')
  unknownEvent(): void {
    return undefined;
  }

  // @ts-expect-error a handler never waits
  @OnTestEvent('sota.changed')
  async waits(): Promise<void> {
    return undefined;
  }
}

describe('onEventOf<EventMap>()', () => {
  it('marks the method as a handler of that event, as @OnEvent does', () => {
    const reflector = new Reflector();
    expect(reflector.get(OnEvent, Handlers.prototype.published)).toBe('epoch.published');
    expect(reflector.get(OnEvent, Handlers.prototype.changed)).toBe('sota.changed');
    expect(reflector.get(OnEvent, Mismatched.prototype.wrongPayload)).toBe('epoch.published');
  });
});
