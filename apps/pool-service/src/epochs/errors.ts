/**
 * The reward snapshot breaks the contract (`RewardSnapshotDto` as `@rcs/client` checks it) or holds an
 * entry the pool cannot pay: the rollover stores no epoch rather than pay from part of it.
 */
export class SnapshotRefusedError extends Error {
  constructor(readonly problems: string[]) {
    super(`reward snapshot refused: ${problems.slice(0, 5).join('; ')}${problems.length > 5 ? ` (+${problems.length - 5} more)` : ''}`);
    this.name = 'SnapshotRefusedError';
  }
}

/**
 * The coordinator's snapshot could not be read on a try BullMQ will repeat (`POOL_SNAPSHOT_ATTEMPTS`):
 * the rollover job fails this attempt and runs again after its backoff, holding no worker meanwhile.
 */
export class SnapshotUnavailableError extends Error {
  constructor(reason: string) {
    super(`the coordinator's reward snapshot is unavailable: ${reason}`);
    this.name = 'SnapshotUnavailableError';
  }
}

/** An epoch operation was asked of something that does not hold (a bug or a misconfiguration). */
export class EpochStateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EpochStateError';
  }
}
