import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AdminTokenChecker } from '../admin-token';
import { ADMIN_TOKEN_HEADER, headerValue } from '../headers';
import { ReplayGuardStore } from '../replay-guard.store';
import { cryptoReady } from '../signature';
import { verifySignedRequest } from '../signed-request';
import { AUTH_OPTIONS, type AuthOptions } from './auth.options';
import './fastify-request';

/** Authenticates a Fastify request and records the principal on it for `@CurrentAuth()`. */
@Injectable()
export class RequestAuthenticator implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(RequestAuthenticator.name);
  private stopWatching: () => void = () => undefined;

  constructor(
    @Inject(AUTH_OPTIONS) private readonly options: AuthOptions,
    private readonly replayGuard: ReplayGuardStore,
    private readonly adminTokens: AdminTokenChecker,
  ) {}

  // Start the sr25519 WebAssembly module at boot rather than on the first signed request.
  async onModuleInit(): Promise<void> {
    this.stopWatching = this.replayGuard.watch(unixNow, (error) =>
      this.logger.warn(`Could not mark the signature store's start: ${error.message}`),
    );
    await cryptoReady();
  }

  onApplicationShutdown(): void {
    this.stopWatching();
  }

  /** Verifies BT-AUTH-V1 headers (DECISIONS.md §2) and returns the signing hotkey, canonical SS58 (prefix 42). */
  async hotkey(request: FastifyRequest): Promise<string> {
    const { hotkey } = await verifySignedRequest({
      method: request.method,
      // The URL the client sent and signed, even if a rewrite changed request.url.
      url: request.originalUrl,
      headers: request.headers,
      rawBody: request.rawBody,
      now: unixNow(),
      maxSkewSeconds: this.options.maxSkewSeconds,
      replayGuard: this.replayGuard,
    });
    request.authPrincipal = { kind: 'hotkey', hotkey };
    return hotkey;
  }

  /** Checks `X-Admin-Token`: 503 when none is configured, 401 when wrong or missing. */
  admin(request: FastifyRequest): void {
    this.adminTokens.assertValid(headerValue(request.headers, ADMIN_TOKEN_HEADER));
    request.authPrincipal = { kind: 'admin' };
  }

  /** Whether the request carries an admin token at all (signed read routes accept one instead). */
  hasAdminToken(request: FastifyRequest): boolean {
    return headerValue(request.headers, ADMIN_TOKEN_HEADER) !== undefined;
  }
}

function unixNow(): number {
  return Math.floor(Date.now() / 1000);
}
