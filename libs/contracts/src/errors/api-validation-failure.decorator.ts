import { ApiUnprocessableEntityResponse } from '@nestjs/swagger';
import { ValidationErrorDto } from './error-response.dto';

/** The 422 of a route: the `ValidationErrorDto` body the validation pipes answer, and what on this route fails validation. */
export function ApiValidationFailure(description: string): MethodDecorator & ClassDecorator {
  return ApiUnprocessableEntityResponse({ type: ValidationErrorDto, description });
}
