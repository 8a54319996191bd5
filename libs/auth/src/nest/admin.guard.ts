import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { RequestAuthenticator } from './request-authenticator';

/** `@Admin()`: a valid `X-Admin-Token`. */
@Injectable()
export class AdminGuard implements CanActivate {
  constructor(private readonly auth: RequestAuthenticator) {}

  canActivate(context: ExecutionContext): boolean {
    this.auth.admin(context.switchToHttp().getRequest<FastifyRequest>());
    return true;
  }
}
