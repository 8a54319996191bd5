import { CoordinatorClient, type RewardSnapshotRead } from '@rcs/client';

/** Where the coordinator's reward snapshot comes from (a token, so a test or another transport can stand in). */
export interface RewardSnapshotSource {
  /** The snapshot checked against the contract, with its bytes exactly as served; rejects as `@rcs/client` does. */
  read(): Promise<RewardSnapshotRead>;
}

export const REWARD_SNAPSHOT_SOURCE = Symbol('REWARD_SNAPSHOT_SOURCE');

const FETCH_TIMEOUT_MS = 10_000;

/** `GET {coordinatorUrl}/api/v1/reward-snapshot` (public) through `@rcs/client`, bounded by a timeout. */
export class HttpRewardSnapshotSource implements RewardSnapshotSource {
  private readonly client: CoordinatorClient;

  constructor(coordinatorUrl: string) {
    this.client = new CoordinatorClient({ baseUrl: coordinatorUrl, timeoutMs: FETCH_TIMEOUT_MS });
  }

  read(): Promise<RewardSnapshotRead> {
    return this.client.rewardSnapshotRead();
  }
}
