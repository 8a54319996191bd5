import { plainToInstance } from 'class-transformer';
import { type RewardSnapshotDto, UpdateRewardPolicyDto } from '@rcs/contracts';
import { InvalidResponseError } from './errors';
import { HttpClient, type HttpClientOptions } from './http-client';
import { asRewardSnapshot, rewardSnapshotProblems } from './reward-snapshot.check';

export const REWARD_SNAPSHOT_PATH = '/api/v1/reward-snapshot';

/** A reward snapshot checked against the contract, with the exact bytes it was read from. */
export interface RewardSnapshotRead {
  snapshot: RewardSnapshotDto;
  bytes: Uint8Array;
}

/**
 * The coordinator's routes as typed calls, each answer checked against its contract DTO before it
 * is handed on. Signed routes use the client's `BtAuthSigner` (the runner's and the pool's calls move here next).
 */
export class CoordinatorClient {
  readonly http: HttpClient;

  constructor(options: HttpClientOptions) {
    this.http = new HttpClient(options);
  }

  /** `GET /api/v1/reward-snapshot` (public): the snapshot the weight setter and the pool compute from. */
  async rewardSnapshot(): Promise<RewardSnapshotDto> {
    return checkedSnapshot(await this.http.json({ method: 'GET', path: REWARD_SNAPSHOT_PATH }));
  }

  /** `GET /api/v1/reward-snapshot` as `readRewardSnapshot` reads it, with the exact bytes served (the pool stores and hashes them). */
  async rewardSnapshotRead(): Promise<RewardSnapshotRead> {
    const bytes = await this.http.bytes({ method: 'GET', path: REWARD_SNAPSHOT_PATH });
    return { snapshot: readRewardSnapshot(bytes), bytes };
  }
}

/**
 * The bytes of a reward snapshot (served now, or stored earlier) as the checked DTO, its policy with
 * the contract's defaults in place of absent parts; `InvalidResponseError` names what breaks the contract.
 */
export function readRewardSnapshot(bytes: Uint8Array): RewardSnapshotDto {
  let document: unknown;
  try {
    document = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new InvalidResponseError(REWARD_SNAPSHOT_PATH, ['the body is not JSON']);
  }
  const snapshot = checkedSnapshot(document);
  return { ...snapshot, reward_policy: plainToInstance(UpdateRewardPolicyDto, snapshot.reward_policy) };
}

function checkedSnapshot(document: unknown): RewardSnapshotDto {
  const problems = rewardSnapshotProblems(document);
  if (problems.length > 0) throw new InvalidResponseError(REWARD_SNAPSHOT_PATH, problems);
  return asRewardSnapshot(document);
}

/** Paths of the coordinator's validator routes (the runner's calls; signed but the verification read). */
export const VALIDATOR_SCAN_PATH = '/api/v1/validator/submissions/scan';
export const validatorJobResultPath = (jobId: string): string => `/api/v1/validator/jobs/${encodeURIComponent(jobId)}/result`;
export const verificationsPath = (submissionId: string): string => `/api/v1/verifications?submission_id=${encodeURIComponent(submissionId)}`;
