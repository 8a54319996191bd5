import { applyDecorators, Get, Type } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import { Public } from '@rcs/auth';
import { ApiErrors, ApiValidationFailure } from '@rcs/contracts';

/** A public list of `row`s, newest first (`created_at`, then `id`); `invalid` says which query bounds answer 422. */
export function PublicListRoute(path: string | undefined, row: Type<unknown>, invalid: string): MethodDecorator {
  return applyDecorators(
    Get(path),
    Public(),
    ApiErrors(),
    ApiOkResponse({ type: [row], description: 'Newest first (created_at, then id).' }),
    ApiValidationFailure(invalid),
  );
}
