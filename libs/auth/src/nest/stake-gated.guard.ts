import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { RequestAuthenticator } from './request-authenticator';
import { StakeGate } from './stake-gate';

/** `@StakeGated()`: a valid signature by a hotkey that passes the miner stake gate. */
@Injectable()
export class StakeGatedGuard implements CanActivate {
  constructor(
    private readonly auth: RequestAuthenticator,
    private readonly stakeGate: StakeGate,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const hotkey = await this.auth.hotkey(context.switchToHttp().getRequest<FastifyRequest>());
    await this.stakeGate.assertStaked(hotkey);
    return true;
  }
}
