/** The embedded data directory is already served by another live process. */
export class EmbeddedDatabaseLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holderPid: number,
  ) {
    super(`Embedded database ${dataDir} is in use by process ${holderPid}`);
    this.name = 'EmbeddedDatabaseLockedError';
  }
}
