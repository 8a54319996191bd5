import type { BtAuthSigner } from '@rcs/auth';
import type { ClaimEpochDto, ClaimPackageDto, LeaderboardEntryDto, RecipientDto, RecipientUpdatedDto } from '@rcs/contracts';
import { type AnswerShape, checkedAnswer, listProblems, shapeProblems } from './answer-shape';
import { CLAIM_EPOCH_SHAPE, CLAIM_PACKAGE_SHAPE, LEADERBOARD_ENTRY_SHAPE, RECIPIENT_SHAPE, RECIPIENT_UPDATED_SHAPE } from './coordinator-answers';
import { HttpClient, type HttpClientOptions, type HttpRequest, type JsonDocument } from './http-client';
import { queryString } from './coordinator-routes';

/** Where the pool mounts its claim routes (spec 001). */
export const POOL_CLAIMS_PREFIX = '/claims';

/**
 * The pool's miner-facing routes: claim packages and epochs (public), the recipient coldkey (pool-signed
 * with the recipient-update message, DECISIONS §2 Pool). Answers are checked against the contract's pool DTOs and keep
 * their text, as on `CoordinatorRoutes`.
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
  claimPackage(hotkey: string, epoch: number | null = null): Promise<JsonDocument<ClaimPackageDto>> {
    const at = epoch === null ? '' : `/${epoch}`;
    return this.read({ method: 'GET', path: `${POOL_CLAIMS_PREFIX}/epoch${at}/proof/${encodeURIComponent(hotkey)}` }, CLAIM_PACKAGE_SHAPE);
  }

  epoch(epoch: number | null = null): Promise<JsonDocument<ClaimEpochDto>> {
    return this.read({ method: 'GET', path: `${POOL_CLAIMS_PREFIX}/epoch${epoch === null ? '' : `/${epoch}`}` }, CLAIM_EPOCH_SHAPE);
  }

  recipient(hotkey: string): Promise<JsonDocument<RecipientDto>> {
    return this.read({ method: 'GET', path: `/api/v1/miners/recipient-coldkey/${encodeURIComponent(hotkey)}` }, RECIPIENT_SHAPE);
  }

  async leaderboard(limit?: number): Promise<JsonDocument<LeaderboardEntryDto[]>> {
    const path = `/api/v1/miners/leaderboard${queryString({ limit })}`;
    const document = await this.http.document({ method: 'GET', path });
    return { value: checkedAnswer<LeaderboardEntryDto[]>(path, document.value, listProblems(document.value, LEADERBOARD_ENTRY_SHAPE)), text: document.text };
  }

  /** `PUT /api/v1/miners/recipient-coldkey`, signed `recipient_coldkey:update:{ts}:{coldkey}` by the hotkey. */
  setRecipient(coldkey: string, timestamp = Math.floor(Date.now() / 1000)): Promise<JsonDocument<RecipientUpdatedDto>> {
    if (this.signer === null) throw new TypeError('setting the recipient needs a signer');
    const headers = { ...this.signer.signRecipientUpdate(timestamp, coldkey) };
    return this.read({ method: 'PUT', path: '/api/v1/miners/recipient-coldkey', body: JSON.stringify({ recipient_coldkey: coldkey }), headers }, RECIPIENT_UPDATED_SHAPE);
  }

  private async read<T>(request: HttpRequest, shape: AnswerShape<T>): Promise<JsonDocument<T>> {
    const document = await this.http.document(request);
    return { value: checkedAnswer<T>(request.path, document.value, shapeProblems(document.value, shape)), text: document.text };
  }
}
