import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { ApiError, ErrorCode } from '@rcs/contracts';
import type { FastifyRequest } from 'fastify';
import { verifyPoolSignedRequest, verifyRecipientUpdateRequest, type PoolRequestContext } from '../pool-signed-request';
import { ReplayGuardStore } from '../replay-guard.store';
import { canonicalSs58 } from '../signature';
import { AUTH_OPTIONS, type AuthOptions } from './auth.options';
import './fastify-request';

declare module 'fastify' {
  interface FastifyRequest {
    /** The canonical recipient coldkey a verified recipient update carries; read it with `@RecipientColdkey()`. */
    recipientColdkey?: string;
  }
}

function poolContext(request: FastifyRequest, options: AuthOptions, replayGuard: ReplayGuardStore): PoolRequestContext {
  return {
    method: request.method,
    headers: request.headers,
    now: Math.floor(Date.now() / 1000),
    maxSkewSeconds: options.maxSkewSeconds,
    replayGuard,
  };
}

/** `@PoolSigned()`: X-Key / X-Timestamp / X-Signature over `auth:{ts}` (or the legacy form); the principal is canonical. */
@Injectable()
export class PoolWalletGuard implements CanActivate {
  constructor(
    @Inject(AUTH_OPTIONS) private readonly options: AuthOptions,
    private readonly replayGuard: ReplayGuardStore,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const hotkey = await verifyPoolSignedRequest(poolContext(request, this.options, this.replayGuard));
    request.authPrincipal = { kind: 'hotkey', hotkey };
    return true;
  }
}

/** `@PoolValidator()`: pool-wallet signed by a hotkey of the validator allowlist (403 otherwise, 503 when it is empty). */
@Injectable()
export class PoolValidatorGuard implements CanActivate {
  constructor(
    @Inject(AUTH_OPTIONS) private readonly options: AuthOptions,
    private readonly replayGuard: ReplayGuardStore,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const allowlist = (await this.options.validatorHotkeys()).map((hotkey) => canonicalSs58(hotkey)).filter((hotkey) => hotkey !== null);
    if (allowlist.length === 0) {
      throw ApiError.unavailable(ErrorCode.ValidatorAllowlistUnconfigured, 'No validator hotkeys are configured on this service.');
    }
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const hotkey = await verifyPoolSignedRequest(poolContext(request, this.options, this.replayGuard));
    if (!allowlist.includes(hotkey)) {
      throw ApiError.forbidden(ErrorCode.ValidatorNotAllowlisted, 'This hotkey is not on the validator allowlist.', { hotkey });
    }
    request.authPrincipal = { kind: 'hotkey', hotkey };
    return true;
  }
}

/**
 * `@RecipientUpdateSigned()`: the signature covers `recipient_coldkey:update:{ts}:{coldkey}`; the coldkey
 * comes from the body (`recipient_coldkey` or `coldkey_address`), 422 when absent or not SS58.
 */
@Injectable()
export class RecipientUpdateGuard implements CanActivate {
  constructor(
    @Inject(AUTH_OPTIONS) private readonly options: AuthOptions,
    private readonly replayGuard: ReplayGuardStore,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const { hotkey, coldkey } = await verifyRecipientUpdateRequest(poolContext(request, this.options, this.replayGuard), request.body);
    request.authPrincipal = { kind: 'hotkey', hotkey };
    request.recipientColdkey = coldkey;
    return true;
  }
}
