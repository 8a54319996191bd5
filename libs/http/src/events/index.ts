export * from './event-stream';
export * from './event-stream.module';
export * from './sse';
export * from './stream-admission';
export * from './event-stream-route';
export * from './events.controller';
export * from './wire-payload';
