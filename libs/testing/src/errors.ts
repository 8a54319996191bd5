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

export class SchemaDriftError extends Error {
  constructor(readonly drift: string[]) {
    super(
      `The entities disagree with the migrations (${drift.length} difference(s)); declare the schema the migrations create ` +
        `in the entities, or generate a migration:\n${drift.map((d) => (d.startsWith('--') ? d : `${d};`)).join('\n')}`,
    );
    this.name = 'SchemaDriftError';
  }
}
