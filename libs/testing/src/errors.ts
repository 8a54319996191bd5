export class InvalidDatabaseNameError extends Error {
  constructor(readonly databaseName: string) {
    super(`"${databaseName}" is not a valid test database name: use [a-z0-9_], start with a letter, at most 54 characters`);
    this.name = 'InvalidDatabaseNameError';
  }
}

export class WaitForHttpTimeoutError extends Error {
  constructor(
    readonly url: string,
    readonly timeoutMs: number,
    readonly attempts: number,
    readonly lastOutcome: string,
  ) {
    super(`${url} was not ready after ${attempts} attempt(s) in ${timeoutMs} ms (last: ${lastOutcome})`);
    this.name = 'WaitForHttpTimeoutError';
  }
}
