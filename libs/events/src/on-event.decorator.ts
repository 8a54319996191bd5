import { Reflector } from '@nestjs/core';
import type { EventHandler, EventNameOf } from './event-bus';

/**
 * Marks a provider method as a handler of one domain event: `(event) => void`. `EventBusModule`
 * subscribes every such method of the app's (singleton) providers at boot; an event may have any
 * number of handlers. Prefer the typed `onEventOf<EventMap>()`.
 */
export const OnEvent = Reflector.createDecorator<string>();

/** Refuses (at compile time) a handler that returns a promise: handlers never wait. */
type NeverWaits<F> = F extends (...args: never[]) => PromiseLike<unknown> ? { 'an event handler must not return a promise': never } : unknown;

/**
 * `@OnEvent` typed by an app's event map: `export const OnDomainEvent = onEventOf<DomainEventMap>();`
 * then `@OnDomainEvent('best.changed') countBest(event: BestChanged): void`. A method naming an event
 * the map lacks, taking another payload or returning a promise does not compile.
 */
export function onEventOf<M extends object>() {
  return <N extends EventNameOf<M>>(name: N) =>
    <F extends EventHandler<M[N]>>(target: object, key: string | symbol, descriptor: TypedPropertyDescriptor<F> & NeverWaits<F>): void => {
      OnEvent(name)(target, key, descriptor);
    };
}
