import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { ApiError, ErrorCode } from '@rcs/contracts';
import type { FastifyRequest } from 'fastify';
import { AUTH_OPTIONS, type AuthOptions } from './auth.options';
import { canonicalSs58 } from '../signature';
import { RequestAuthenticator } from './request-authenticator';

/** `@Validator()`: a valid signature by an allowlisted validator hotkey. */
@Injectable()
export class ValidatorGuard implements CanActivate {
  constructor(
    @Inject(AUTH_OPTIONS) private readonly options: AuthOptions,
    private readonly auth: RequestAuthenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const allowlist = await this.options.validatorHotkeys();
    // A deployment without validators is misconfigured whoever asks: say so before any signature work.
    if (allowlist.length === 0) {
      throw ApiError.unavailable(
        ErrorCode.ValidatorAllowlistUnconfigured,
        'No validator hotkeys are configured on this service.',
      );
    }
    // The signer comes back canonical; so must the allowlist, however its entries were spelled (§2 Identity).
    const hotkey = await this.auth.hotkey(context.switchToHttp().getRequest<FastifyRequest>());
    if (!allowlist.some((entry) => canonicalSs58(entry) === hotkey)) {
      throw ApiError.forbidden(ErrorCode.ValidatorNotAllowlisted, 'This hotkey is not on the validator allowlist.', {
        hotkey,
      });
    }
    return true;
  }
}
