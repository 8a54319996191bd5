import { applyDecorators, Get } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiOperation, ApiProduces, ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { ApiErrors, ValidationErrorDto } from '@rcs/contracts';

/** The GET route and OpenAPI declaration of a service's `/api/v1/events` stream (DECISIONS §14); `description` lists its events. */
export function EventStreamRoute(description: string): MethodDecorator {
  return applyDecorators(
    Get(),
    ApiErrors(),
    ApiOperation({ summary: 'Live events (Server-Sent Events)', description }),
    ApiProduces('text/event-stream'),
    ApiHeader({ name: 'Last-Event-ID', required: false, description: 'Resume after this event id.' }),
    ApiOkResponse({ description: 'An endless `text/event-stream`.', schema: { type: 'string' } }),
    ApiUnprocessableEntityResponse({ type: ValidationErrorDto, description: '`Last-Event-ID` is not an event id.' }),
  );
}
