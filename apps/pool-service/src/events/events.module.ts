import { Global, Module } from '@nestjs/common';
import { EventBusModule } from '@rcs/events';
import { EventsController } from './events.controller';
import { PoolEvents } from './pool-events';
import { PublicEvents } from './public-events';

/** The pool's domain event bus, which every domain module may emit on, and its public event stream (the route and the publisher). */
@Global()
@Module({ imports: [EventBusModule.forRoot(PoolEvents)], providers: [PublicEvents], controllers: [EventsController], exports: [EventBusModule] })
export class EventsModule {}
