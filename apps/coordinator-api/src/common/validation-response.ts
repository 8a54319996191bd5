import { ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { ValidationErrorDto } from '@rcs/contracts';

/** The 422 of a route: the `ValidationErrorDto` body the global pipe answers, and what on this route fails validation. */
export function ApiValidationFailure(description: string): MethodDecorator & ClassDecorator {
  return ApiUnprocessableEntityResponse({ type: ValidationErrorDto, description });
}
