import { createHash } from 'node:crypto';
import type { Client } from 'pg';
import { DataSource, MigrationInterface } from 'typeorm';
import type { PostgresConnectionOptions } from 'typeorm/driver/postgres/PostgresConnectionOptions';
import { checkedName, databaseUrl, withAdmin } from './admin';

export type TestMigrationClass = new () => MigrationInterface;
export type TestEntities = NonNullable<PostgresConnectionOptions['entities']>;
/** Extra data source options, e.g. `sharedDataSourceOptions()` of @rcs/persistence for snake_case names. */
export type TestDataSourceOptions = Partial<Omit<PostgresConnectionOptions, 'type' | 'url' | 'entities' | 'migrations'>>;

export interface TemplateSpec {
  /** Template database name, e.g. `rcs_coordinator_template`. */
  name: string;
  entities: TestEntities;
  migrations: TestMigrationClass[];
  dataSourceOptions?: TestDataSourceOptions;
}

export interface TemplateDatabase {
  name: string;
  url: string;
  /** True when this call (re)built it; false when an up-to-date template was reused. */
  built: boolean;
}

/** Changes whenever a migration is added, removed, renamed or edited. */
export function migrationFingerprint(migrations: TestMigrationClass[]): string {
  const hash = createHash('sha256');
  for (const migration of migrations) hash.update(migration.name).update('\0').update(migration.toString()).update('\0');
  return `rcs-template:${hash.digest('hex')}`;
}

export function testDataSource(url: string, spec: Omit<TemplateSpec, 'name'>): DataSource {
  return new DataSource({
    ...spec.dataSourceOptions,
    type: 'postgres',
    url,
    entities: spec.entities,
    migrations: spec.migrations,
    synchronize: false,
    migrationsRun: false,
  });
}

async function migrate(url: string, spec: TemplateSpec): Promise<void> {
  const dataSource = testDataSource(url, spec);
  await dataSource.initialize();
  try {
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await dataSource.destroy();
  }
}

async function ensureTemplate(admin: Client, spec: TemplateSpec): Promise<boolean> {
  const fingerprint = migrationFingerprint(spec.migrations);
  const { rows } = await admin.query<{ comment: string | null }>(
    `SELECT shobj_description(oid, 'pg_database') AS comment FROM pg_database WHERE datname = $1`,
    [spec.name],
  );
  if (rows[0]?.comment === fingerprint) return false;
  await admin.query(`DROP DATABASE IF EXISTS "${spec.name}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${spec.name}"`);
  await migrate(databaseUrl(spec.name), spec);
  // Written last: a build that died half-way leaves no fingerprint and is redone.
  await admin.query(`COMMENT ON DATABASE "${spec.name}" IS '${fingerprint}'`);
  return true;
}

/**
 * Runs `fn` holding a server-wide advisory lock for this template, so parallel Jest workers and
 * projects never build it twice or clone it while it is being rebuilt.
 */
export async function withTemplateLock<T>(spec: TemplateSpec, fn: (admin: Client, built: boolean) => Promise<T>): Promise<T> {
  checkedName(spec.name);
  return withAdmin(async (admin) => {
    const key = `rcs-test-template:${spec.name}`;
    await admin.query('SELECT pg_advisory_lock(hashtext($1))', [key]);
    try {
      return await fn(admin, await ensureTemplate(admin, spec));
    } finally {
      await admin.query('SELECT pg_advisory_unlock(hashtext($1))', [key]);
    }
  });
}

/** Creates the template migrated to head, or reuses it when its migrations have not changed. */
export async function createTemplateDatabase(spec: TemplateSpec): Promise<TemplateDatabase> {
  return withTemplateLock(spec, async (_admin, built) => ({ name: spec.name, url: databaseUrl(spec.name), built }));
}
