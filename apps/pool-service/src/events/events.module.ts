import { Global, Module } from '@nestjs/common';
import { EventsController } from './events.controller';
import { PoolEvents } from './pool-events';

/** The pool's public event stream: the route and the publisher every domain module may use. */
@Global()
@Module({ providers: [PoolEvents], controllers: [EventsController], exports: [PoolEvents] })
export class EventsModule {}
