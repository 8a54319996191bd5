/** The coordinator's snapshot could not be fetched (the rollover retries, then falls back). */
export class SnapshotUnavailableError extends Error {
  constructor(message: string) {
    super(message);
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
