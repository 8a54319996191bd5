export { EventBus, type EventHandler, type EventNameOf } from './event-bus';
export { EventBusModule } from './event-bus.module';
export { OnEvent, onEventOf } from './on-event.decorator';
