import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AUTH_OPTIONS, type AuthOptions } from './auth.options';
import { canonicalSs58 } from '../signature';
import { RequestAuthenticator } from './request-authenticator';
import { assertAllowlistConfigured, assertAllowlisted } from './validator-allowlist';

/** `@Validator()`: a valid signature by an allowlisted validator hotkey. */
@Injectable()
export class ValidatorGuard implements CanActivate {
  constructor(
    @Inject(AUTH_OPTIONS) private readonly options: AuthOptions,
    private readonly auth: RequestAuthenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const allowlist = await this.options.validatorHotkeys();
    assertAllowlistConfigured(allowlist);
    // The signer comes back canonical; so must the allowlist, however its entries were spelled (§2 Identity).
    const hotkey = await this.auth.hotkey(context.switchToHttp().getRequest<FastifyRequest>());
    assertAllowlisted(allowlist.map((entry) => canonicalSs58(entry)), hotkey);
    return true;
  }
}
