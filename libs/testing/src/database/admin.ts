import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { testDatabaseUrlBase } from '../config';
import { InvalidDatabaseNameError } from '../errors';

// Room for the `_<8 hex>` suffix of clones within Postgres' 63-byte identifier limit.
const NAME = /^[a-z][a-z0-9_]{0,53}$/;

/** Validates a name we interpolate into DDL (identifiers cannot be bound parameters). */
export function checkedName(name: string): string {
  if (!NAME.test(name)) throw new InvalidDatabaseNameError(name);
  return name;
}

export function uniqueName(base: string): string {
  return `${checkedName(base)}_${randomBytes(4).toString('hex')}`;
}

export function databaseUrl(name: string): string {
  const url = new URL(testDatabaseUrlBase());
  url.pathname = `/${name}`;
  return url.toString();
}

/** A short-lived connection to the admin database of the test server. */
export async function withAdmin<T>(fn: (admin: Client) => Promise<T>): Promise<T> {
  const admin = new Client({ connectionString: testDatabaseUrlBase(), application_name: 'rcs-testing' });
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.end();
  }
}

export async function dropDatabase(name: string): Promise<void> {
  // FORCE ends sessions a failed test left open (Postgres 13+).
  await withAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}
