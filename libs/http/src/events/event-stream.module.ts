import { DynamicModule, Module } from '@nestjs/common';
import { EnvReader } from '@rcs/config';
import { EVENT_STREAM_OPTIONS, EventStream, EventStreamOptions } from './event-stream';

/** The service's public event stream (`EventStream`), available to every module of the app. */
@Module({})
export class EventStreamModule {
  static forRoot(options: EventStreamOptions): DynamicModule {
    return {
      module: EventStreamModule,
      global: true,
      providers: [{ provide: EVENT_STREAM_OPTIONS, useValue: options }, EventStream],
      exports: [EventStream],
    };
  }
}

/** `EVENTS_MAX_LENGTH` and `EVENTS_HEARTBEAT_SECONDS`, read the same way by every service that streams events. */
export function readEventStreamSettings(read: EnvReader): Omit<EventStreamOptions, 'key'> {
  return {
    maxLength: read.int('EVENTS_MAX_LENGTH', 10000, 10, 10_000_000),
    heartbeatMs: read.int('EVENTS_HEARTBEAT_SECONDS', 15, 1, 3600) * 1000,
  };
}
