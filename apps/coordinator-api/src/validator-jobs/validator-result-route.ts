import { applyDecorators, HttpCode, Post } from '@nestjs/common';
import { ApiOkResponse } from '@nestjs/swagger';
import { Validator } from '@rcs/auth';
import { ApiValidationFailure, ApiErrors, type DeclaredError, ErrorCode, SIGNATURE_ERRORS, VerificationSummaryDto } from '@rcs/contracts';

/**
 * An allowlisted validator's signed post of an observed result, answered 200 with the recorded
 * verification; `invalid` says what answers 422, `errors` the route's own codes (the signature and
 * allowlist codes follow them).
 */
export function ValidatorResultRoute(path: string, invalid: string, ...errors: DeclaredError[]): MethodDecorator {
  return applyDecorators(
    Post(path),
    HttpCode(200),
    Validator(),
    ApiOkResponse({ type: VerificationSummaryDto, description: 'The recorded verification.' }),
    ApiValidationFailure(invalid),
    ApiErrors(...errors, ...SIGNATURE_ERRORS, ErrorCode.ValidatorNotAllowlisted, [ErrorCode.ValidatorAllowlistUnconfigured, 'no VALIDATOR_HOTKEYS']),
  );
}
