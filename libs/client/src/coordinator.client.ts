import type { RewardSnapshotDto } from '@rcs/contracts';
import { InvalidResponseError } from './errors';
import { HttpClient, type HttpClientOptions } from './http-client';
import { asRewardSnapshot, rewardSnapshotProblems } from './reward-snapshot.check';

export const REWARD_SNAPSHOT_PATH = '/api/v1/reward-snapshot';

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
    const document = await this.http.json({ method: 'GET', path: REWARD_SNAPSHOT_PATH });
    const problems = rewardSnapshotProblems(document);
    if (problems.length > 0) throw new InvalidResponseError(REWARD_SNAPSHOT_PATH, problems);
    return asRewardSnapshot(document);
  }
}

/** Paths of the coordinator's validator routes (the runner's calls; signed but the verification read). */
export const VALIDATOR_SCAN_PATH = '/api/v1/validator/submissions/scan';
export const validatorJobResultPath = (jobId: string): string => `/api/v1/validator/jobs/${encodeURIComponent(jobId)}/result`;
export const verificationsPath = (submissionId: string): string => `/api/v1/verifications?submission_id=${encodeURIComponent(submissionId)}`;
