import { DynamicModule, Module } from '@nestjs/common';
import { EnvReader } from '@rcs/config';
import { TrustedProxies } from '../net/trusted-proxies';
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

/** An event stream's settings as a service's config holds them (the Redis key is the app's to choose). */
export type EventStreamSettings = Omit<EventStreamOptions, 'key'>;

/**
 * `EVENTS_MAX_LENGTH`, `EVENTS_HEARTBEAT_SECONDS` and the limits on open streams (DECISIONS §14:
 * `EVENTS_MAX_STREAMS_PER_CLIENT`, `EVENTS_MAX_STREAMS`, `EVENTS_MAX_IDLE_SECONDS`), read the same way
 * by every service that streams events; `trustedProxies` name the proxies whose `X-Forwarded-For` is believed.
 */
export function readEventStreamSettings(read: EnvReader, trustedProxies: TrustedProxies): EventStreamSettings {
  return {
    maxLength: read.int('EVENTS_MAX_LENGTH', 10000, 10, 10_000_000),
    heartbeatMs: read.int('EVENTS_HEARTBEAT_SECONDS', 15, 1, 3600) * 1000,
    maxStreamsPerClient: read.int('EVENTS_MAX_STREAMS_PER_CLIENT', 8, 1, 100_000),
    maxStreams: read.int('EVENTS_MAX_STREAMS', 2000, 1, 1_000_000),
    maxIdleMs: read.int('EVENTS_MAX_IDLE_SECONDS', 60, 1, 86400) * 1000,
    trustedProxies,
  };
}
