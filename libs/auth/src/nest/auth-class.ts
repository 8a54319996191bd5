import { applyDecorators, SetMetadata } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ErrorCode, SIGNATURE_ERRORS } from '@rcs/contracts';

/** Who may call a route: every route declares exactly one (the route-declaration tests check it). */
export enum AuthClass {
  Public = 'public',
  Signed = 'signed',
  SignedOrAdmin = 'signed_or_admin',
  StakeGated = 'stake_gated',
  Validator = 'validator',
  Admin = 'admin',
  PoolSigned = 'pool_signed',
  PoolValidator = 'pool_validator',
  RecipientUpdate = 'recipient_update',
}

/** Metadata key of a handler's `AuthClass`. */
export const AUTH_CLASS_METADATA = 'rcs:auth-class';

/** Also in the Fastify route's config, so per-request hooks (CORS) read it without a lookup. */
export function authClassMetadata(authClass: AuthClass): MethodDecorator & ClassDecorator {
  return applyDecorators(SetMetadata(AUTH_CLASS_METADATA, authClass), RouteConfig({ authClass }));
}

/** The auth class declared on `handler`, or undefined. */
export function declaredAuthClass(handler: object): AuthClass | undefined {
  return Reflect.getMetadata(AUTH_CLASS_METADATA, handler) as AuthClass | undefined;
}

/** The 401 codes a route of each class answers when its credentials fail; its `@ApiErrors` lists them. */
export const AUTH_CLASS_ERRORS: Record<AuthClass, readonly ErrorCode[]> = {
  [AuthClass.Public]: [],
  [AuthClass.Signed]: SIGNATURE_ERRORS,
  [AuthClass.SignedOrAdmin]: [...SIGNATURE_ERRORS, ErrorCode.InvalidAdminToken],
  [AuthClass.StakeGated]: SIGNATURE_ERRORS,
  [AuthClass.Validator]: SIGNATURE_ERRORS,
  [AuthClass.Admin]: [ErrorCode.InvalidAdminToken],
  [AuthClass.PoolSigned]: SIGNATURE_ERRORS,
  [AuthClass.PoolValidator]: SIGNATURE_ERRORS,
  [AuthClass.RecipientUpdate]: SIGNATURE_ERRORS,
};

/** A route anyone may call, declared as such. */
export function Public(): MethodDecorator & ClassDecorator {
  return authClassMetadata(AuthClass.Public);
}
