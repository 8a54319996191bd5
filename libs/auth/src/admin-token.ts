import { createHash, timingSafeEqual } from 'node:crypto';
import { ApiError, ErrorCode } from '@rcs/contracts';

export interface AdminTokenConfig {
  /** Plain tokens (`ADMIN_TOKENS`). */
  adminTokens: string[];
  /** Hex SHA-256 digests of tokens (`ADMIN_TOKEN_SHA256`). */
  adminTokenSha256: string[];
}

/** An `ADMIN_TOKEN_SHA256` entry is not 64 hex digits. */
export class AdminTokenConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AdminTokenConfigError';
  }
}

const SHA256_HEX = /^[0-9a-fA-F]{64}$/;

function sha256(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** Checks `X-Admin-Token` in constant time against the configured tokens, kept only as digests. */
export class AdminTokenChecker {
  private readonly digests: Buffer[];

  constructor(config: AdminTokenConfig) {
    const bad = config.adminTokenSha256.find((d) => !SHA256_HEX.test(d));
    if (bad !== undefined) throw new AdminTokenConfigError('ADMIN_TOKEN_SHA256 entries must be 64 hex digits');
    this.digests = [
      // An empty token (e.g. a stray comma in ADMIN_TOKENS) must never authenticate.
      ...config.adminTokens.filter((t) => t.length > 0).map(sha256),
      ...config.adminTokenSha256.map((d) => Buffer.from(d, 'hex')),
    ];
  }

  get configured(): boolean {
    return this.digests.length > 0;
  }

  /** Whether `token` is one of the configured tokens; compares every digest, whatever matches. */
  isValid(token: string | undefined): boolean {
    if (token === undefined || token.length === 0) return false;
    const candidate = sha256(token);
    let match = false;
    for (const digest of this.digests) match = timingSafeEqual(candidate, digest) || match;
    return match;
  }

  /** Throws 503 `admin_unconfigured` when no token is configured, 401 `invalid_admin_token` on a wrong one. */
  assertValid(token: string | undefined): void {
    if (!this.configured) {
      throw ApiError.unavailable(ErrorCode.AdminUnconfigured, 'No admin token is configured on this service.');
    }
    if (!this.isValid(token)) {
      throw ApiError.unauthorized(ErrorCode.InvalidAdminToken, 'X-Admin-Token is missing or wrong.');
    }
  }
}
