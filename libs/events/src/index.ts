export { EventBus, type EventHandler, type EventNameOf } from './event-bus';
export { EventBusModule } from './event-bus.module';
export { OnEvent, onEventOf } from './on-event.decorator';
export { DecoratedMethods, type DecoratedMethod, type MethodDecoratorOf } from './decorated-methods';
