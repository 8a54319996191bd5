import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { RequestAuthenticator } from './request-authenticator';

export interface SignedOptions {
  /** Also let a valid `X-Admin-Token` through (admins may read any signed read route). */
  allowAdmin?: boolean;
}

export const SIGNED_OPTIONS = Symbol('SIGNED_OPTIONS');

/** `@Signed()`: any valid BT-AUTH-V1 signature (or, when allowed, an admin token). */
@Injectable()
export class SignedGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly auth: RequestAuthenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const options = this.reflector.getAllAndOverride<SignedOptions | undefined>(SIGNED_OPTIONS, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (options?.allowAdmin === true && this.auth.hasAdminToken(request)) {
      this.auth.admin(request);
    } else {
      await this.auth.hotkey(request);
    }
    return true;
  }
}
