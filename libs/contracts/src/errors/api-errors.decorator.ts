import { SetMetadata, applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorCode } from './error-code';
import { ErrorDetailDto } from './error-response.dto';
import { ERROR_STATUS } from './error-status';

/** A code a route answers with, optionally with a note on when or what context it carries (`(…)` or a clause after a colon). */
export type DeclaredError = ErrorCode | readonly [ErrorCode, string];

/** Metadata key of the codes `@ApiErrors(...)` declared on a handler. */
export const API_ERRORS_METADATA = 'rcs:api-errors';

function codeOf(declared: DeclaredError): ErrorCode {
  return typeof declared === 'string' ? declared : declared[0];
}

function describeError(declared: DeclaredError): string {
  if (typeof declared === 'string') return `\`${declared}\``;
  const [code, note] = declared;
  return note.startsWith('(') ? `\`${code}\` ${note}` : `\`${code}\`: ${note}`;
}

/** The codes `@ApiErrors(...)` declared on `handler`, or undefined when it declares none. */
export function declaredErrors(handler: object): ErrorCode[] | undefined {
  return Reflect.getMetadata(API_ERRORS_METADATA, handler) as ErrorCode[] | undefined;
}

/**
 * Documents the error answers of a route in OpenAPI, one response per status of `ERROR_STATUS`, each
 * listing its codes. A route that answers no error code still says so with `@ApiErrors()`.
 * (422 validation answers have their own shape: `@ApiValidationFailure`.)
 */
export function ApiErrors(...errors: DeclaredError[]): MethodDecorator {
  const byStatus = new Map<number, DeclaredError[]>();
  for (const declared of errors) {
    const status = ERROR_STATUS[codeOf(declared)];
    byStatus.set(status, [...(byStatus.get(status) ?? []), declared]);
  }
  return applyDecorators(
    SetMetadata(API_ERRORS_METADATA, errors.map(codeOf)),
    ...[...byStatus.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, declared]) => ApiResponse({ status, type: ErrorDetailDto, description: `${declared.map(describeError).join(', or ')}.` })),
  );
}
