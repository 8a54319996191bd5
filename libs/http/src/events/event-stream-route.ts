import { applyDecorators, Get } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiProduces } from '@nestjs/swagger';
import { ApiValidationFailure, ApiErrors, ErrorCode } from '@rcs/contracts';

const LIMITS = [
  'Open streams are bounded per server process: at most `EVENTS_MAX_STREAMS_PER_CLIENT` (default 8) per client address and `EVENTS_MAX_STREAMS` (2000) in all;',
  'beyond them 429 `too_many_streams` with `Retry-After`. A stream whose client stops reading (output waits unsent for `EVENTS_MAX_IDLE_SECONDS`, 60) is closed; reconnect with `Last-Event-ID`.',
].join(' ');

/** The GET route and OpenAPI declaration of a service's `/api/v1/events` stream (DECISIONS §14); `description` lists its events. */
export function EventStreamRoute(description: string): MethodDecorator {
  return applyDecorators(
    Get(),
    ApiErrors([ErrorCode.TooManyStreams, 'with Retry-After: this client address (`EVENTS_MAX_STREAMS_PER_CLIENT`) or the server (`EVENTS_MAX_STREAMS`) has as many streams open as allowed']),
    ApiOperation({ summary: 'Live events (Server-Sent Events)', description: `${description}\n\n${LIMITS}` }),
    ApiProduces('text/event-stream'),
    ApiHeader({ name: 'Last-Event-ID', required: false, description: 'Resume after this event id.' }),
    ApiOkResponse({ description: 'An endless `text/event-stream`.', schema: { type: 'string' } }),
    ApiValidationFailure('`Last-Event-ID` is not an event id.'),
  );
}
