import type { BtAuthSigner } from '@rcs/auth';
import { HttpClient, type HttpClientOptions, type JsonDocument } from './http-client';
import { queryString } from './coordinator-routes';

/** Where the pool mounts its claim routes (spec 001). */
export const POOL_CLAIMS_PREFIX = '/claims';

/**
 * The pool's miner-facing routes: claim packages and epochs (public), the recipient coldkey (pool-signed
 * with the recipient-update message, DECISIONS §2 Pool). Answers keep their text, as on `CoordinatorRoutes`.
 */
export class PoolClient {
  readonly http: HttpClient;

  constructor(
    options: Omit<HttpClientOptions, 'signer'>,
    private readonly signer: BtAuthSigner | null = null,
  ) {
    this.http = new HttpClient(options);
  }

  /** The newest package of the hotkey (`epoch` null), or that of one epoch. */
  claimPackage(hotkey: string, epoch: number | null = null): Promise<JsonDocument<unknown>> {
    const at = epoch === null ? '' : `/${epoch}`;
    return this.http.document({ method: 'GET', path: `${POOL_CLAIMS_PREFIX}/epoch${at}/proof/${encodeURIComponent(hotkey)}` });
  }

  epoch(epoch: number | null = null): Promise<JsonDocument<unknown>> {
    return this.http.document({ method: 'GET', path: `${POOL_CLAIMS_PREFIX}/epoch${epoch === null ? '' : `/${epoch}`}` });
  }

  recipient(hotkey: string): Promise<JsonDocument<unknown>> {
    return this.http.document({ method: 'GET', path: `/api/v1/miners/recipient-coldkey/${encodeURIComponent(hotkey)}` });
  }

  leaderboard(limit?: number): Promise<JsonDocument<unknown>> {
    return this.http.document({ method: 'GET', path: `/api/v1/miners/leaderboard${queryString({ limit })}` });
  }

  /** `PUT /api/v1/miners/recipient-coldkey`, signed `recipient_coldkey:update:{ts}:{coldkey}` by the hotkey. */
  setRecipient(coldkey: string, timestamp = Math.floor(Date.now() / 1000)): Promise<JsonDocument<unknown>> {
    if (this.signer === null) throw new TypeError('setting the recipient needs a signer');
    const headers = { ...this.signer.signRecipientUpdate(timestamp, coldkey) };
    return this.http.document({ method: 'PUT', path: '/api/v1/miners/recipient-coldkey', body: JSON.stringify({ recipient_coldkey: coldkey }), headers });
  }
}
