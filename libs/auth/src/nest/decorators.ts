import { SetMetadata, UseGuards, applyDecorators, createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { ApiHeader, ApiSecurity } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ADMIN_TOKEN_HEADER, HOTKEY_HEADER, SIGNATURE_HEADER, TIMESTAMP_HEADER } from '../headers';
import type { AuthPrincipal } from '../principal';
import { AdminGuard } from './admin.guard';
import { ADMIN_SECURITY, SIGNED_SECURITY } from './openapi';
import { SIGNED_OPTIONS, SignedGuard, type SignedOptions } from './signed.guard';
import { StakeGatedGuard } from './stake-gated.guard';
import { ValidatorGuard } from './validator.guard';
import { AuthClass, authClassMetadata } from './auth-class';
import './fastify-request';

// The spec declares the auth headers optional in route descriptions; the guards enforce them.
// No @ApiResponse here: one would replace the route's default success response in the document.
// Made afresh for each route: one `ApiSecurity` decorator applied to several methods accumulates the
// requirements of each (it extends its own closure), so a shared one made the document depend on load order.
const signedDocs = () => [
  ApiHeader({ name: HOTKEY_HEADER, required: false, description: 'SS58 hotkey that signed the request' }),
  ApiHeader({ name: TIMESTAMP_HEADER, required: false, description: 'Unix seconds, within the allowed skew' }),
  ApiHeader({ name: SIGNATURE_HEADER, required: false, description: 'sr25519 signature of the BT-AUTH-V1 message, hex' }),
  ApiSecurity({ [SIGNED_SECURITY.hotkey]: [], [SIGNED_SECURITY.timestamp]: [], [SIGNED_SECURITY.signature]: [] }),
];

const adminDocs = () => [
  ApiHeader({ name: ADMIN_TOKEN_HEADER, required: false, description: 'Operator admin token' }),
  ApiSecurity(ADMIN_SECURITY),
];

/** Any valid BT-AUTH-V1 signature; `{ allowAdmin: true }` also admits a valid `X-Admin-Token`. */
export function Signed(options: SignedOptions = {}) {
  return applyDecorators(
    SetMetadata(SIGNED_OPTIONS, { allowAdmin: options.allowAdmin ?? false } satisfies SignedOptions),
    authClassMetadata(options.allowAdmin === true ? AuthClass.SignedOrAdmin : AuthClass.Signed),
    UseGuards(SignedGuard),
    ...signedDocs(),
    ...(options.allowAdmin === true ? adminDocs() : []),
  );
}

/** Signed by a hotkey that passes the miner stake gate (403 `insufficient_miner_stake`). */
export function StakeGated() {
  return applyDecorators(authClassMetadata(AuthClass.StakeGated), UseGuards(StakeGatedGuard), ...signedDocs());
}

/** Signed by an allowlisted validator hotkey. */
export function Validator() {
  return applyDecorators(authClassMetadata(AuthClass.Validator), UseGuards(ValidatorGuard), ...signedDocs());
}

/** A valid `X-Admin-Token`. */
export function Admin() {
  return applyDecorators(authClassMetadata(AuthClass.Admin), UseGuards(AdminGuard), ...adminDocs());
}

/** A guard's principal was asked for on a route that has no auth decorator. */
export class AuthPrincipalMissingError extends Error {
  constructor() {
    super('@CurrentAuth() needs @Signed(), @StakeGated(), @Validator() or @Admin() on the route');
    this.name = 'AuthPrincipalMissingError';
  }
}

/** The principal the route's auth guard verified. */
export const CurrentAuth = createParamDecorator((_data: unknown, context: ExecutionContext): AuthPrincipal => {
  const principal = context.switchToHttp().getRequest<FastifyRequest>().authPrincipal;
  if (principal === undefined) throw new AuthPrincipalMissingError();
  return principal;
});
