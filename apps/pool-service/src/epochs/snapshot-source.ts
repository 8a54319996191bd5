import { SnapshotUnavailableError } from './errors';

/**
 * Where the coordinator's reward snapshot comes from. Kept tiny and behind a token so a shared
 * coordinator client can replace the HTTP fetcher without touching the rollover.
 */
export interface RewardSnapshotSource {
  /** The snapshot's bytes exactly as served; rejects when the coordinator cannot answer. */
  fetch(): Promise<Uint8Array>;
}

export const REWARD_SNAPSHOT_SOURCE = Symbol('REWARD_SNAPSHOT_SOURCE');

const FETCH_TIMEOUT_MS = 10_000;

/** `GET {coordinatorUrl}/api/v1/reward-snapshot`, public, bounded by a timeout. */
export class HttpRewardSnapshotSource implements RewardSnapshotSource {
  constructor(private readonly coordinatorUrl: string) {}

  async fetch(): Promise<Uint8Array> {
    const url = `${this.coordinatorUrl}/api/v1/reward-snapshot`;
    const response = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), headers: { accept: 'application/json' } });
    if (response.status !== 200) throw new SnapshotUnavailableError(`GET ${url} answered ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  }
}
