import { Module } from '@nestjs/common';
import { EventBusModule } from '@rcs/events';
import { DomainEvents } from './domain-events';
import { EventsController } from './events.controller';
import { PublicEvents } from './public-events';

/** The in-process domain event bus (one instance, shared by every module that imports this one) and the public stream. */
@Module({ imports: [EventBusModule.forRoot(DomainEvents)], providers: [PublicEvents], controllers: [EventsController], exports: [EventBusModule] })
export class EventsModule {}
