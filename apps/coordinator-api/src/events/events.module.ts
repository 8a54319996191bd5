import { Module } from '@nestjs/common';
import { DomainEvents } from './domain-events';
import { EventsController } from './events.controller';
import { PublicEvents } from './public-events';

/** The in-process domain event bus (one instance, shared by every module that imports this one) and the public stream. */
@Module({ providers: [DomainEvents, PublicEvents], controllers: [EventsController], exports: [DomainEvents] })
export class EventsModule {}
