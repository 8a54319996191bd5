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

/** An epoch operation was asked of something that does not hold (a bug or a misconfiguration). */
export class EpochStateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EpochStateError';
  }
}
