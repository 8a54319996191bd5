import type { SchemaObject } from '@nestjs/swagger';

/** `GET /healthz`: an object of string values, e.g. `{"status": "ok"}`. */
export type HealthResponse = Record<string, string>;

/** OpenAPI schema of `HealthResponse`, for `@ApiOkResponse({ schema: HEALTH_RESPONSE_SCHEMA })`. */
export const HEALTH_RESPONSE_SCHEMA: SchemaObject = {
  type: 'object',
  additionalProperties: { type: 'string' },
  example: { status: 'ok' },
};
