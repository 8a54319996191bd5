import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { verifyPoolSignedRequest, verifyRecipientUpdateRequest, type PoolRequestContext } from '../pool-signed-request';
import { ReplayGuardStore } from '../replay-guard.store';
import { canonicalSs58 } from '../signature';
import { AUTH_OPTIONS, type AuthOptions } from './auth.options';
import { StakeGate } from './stake-gate';
import { assertAllowlistConfigured, assertAllowlisted } from './validator-allowlist';
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

/** What the pool guards share: the signing context of the request; `authenticate` verifies it and sets the principal. */
@Injectable()
abstract class PoolSignedGuard implements CanActivate {
  constructor(
    @Inject(AUTH_OPTIONS) protected readonly options: AuthOptions,
    private readonly replayGuard: ReplayGuardStore,
    protected readonly stakeGate: StakeGate,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    await this.authenticate(request, poolContext(request, this.options, this.replayGuard));
    return true;
  }

  protected abstract authenticate(request: FastifyRequest, signed: PoolRequestContext): Promise<void>;
}

/**
 * `@PoolSigned()`: X-Key / X-Timestamp / X-Signature over `auth:{ts}` (or the legacy form), by a hotkey that
 * passes the stake gate when the app configures one (the pool's `POOL_MIN_STAKE_RAO`); the principal is canonical.
 */
@Injectable()
export class PoolWalletGuard extends PoolSignedGuard {
  protected async authenticate(request: FastifyRequest, signed: PoolRequestContext): Promise<void> {
    const hotkey = await verifyPoolSignedRequest(signed);
    await this.stakeGate.assertStaked(hotkey);
    request.authPrincipal = { kind: 'hotkey', hotkey };
  }
}

/** `@PoolValidator()`: pool-wallet signed by a hotkey of the validator allowlist (403 otherwise, 503 when it is empty). */
@Injectable()
export class PoolValidatorGuard extends PoolSignedGuard {
  protected async authenticate(request: FastifyRequest, signed: PoolRequestContext): Promise<void> {
    const allowlist = (await this.options.validatorHotkeys()).map((hotkey) => canonicalSs58(hotkey)).filter((hotkey) => hotkey !== null);
    assertAllowlistConfigured(allowlist);
    const hotkey = await verifyPoolSignedRequest(signed);
    assertAllowlisted(allowlist, hotkey);
    request.authPrincipal = { kind: 'hotkey', hotkey };
  }
}

/**
 * `@RecipientUpdateSigned()` (stake-gated like `@PoolSigned()`): the signature covers `recipient_coldkey:update:{ts}:{coldkey}`; the coldkey
 * comes from the body (`recipient_coldkey` or `coldkey_address`), 422 when absent or not SS58.
 */
@Injectable()
export class RecipientUpdateGuard extends PoolSignedGuard {
  protected async authenticate(request: FastifyRequest, signed: PoolRequestContext): Promise<void> {
    const { hotkey, coldkey } = await verifyRecipientUpdateRequest(signed, request.body);
    await this.stakeGate.assertStaked(hotkey);
    request.authPrincipal = { kind: 'hotkey', hotkey };
    request.recipientColdkey = coldkey;
  }
}
