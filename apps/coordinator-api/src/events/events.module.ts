import { Module } from '@nestjs/common';
import { DomainEvents } from './domain-events';

/** The in-process domain event bus: one instance, shared by every module that imports this one. */
@Module({ providers: [DomainEvents], exports: [DomainEvents] })
export class EventsModule {}
