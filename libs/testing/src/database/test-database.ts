import type { DataSource } from 'typeorm';
import { databaseUrl, dropDatabase, uniqueName } from './admin';
import { TemplateSpec, testDataSource, withTemplateLock } from './template-database';

export interface TestDatabaseSpec extends Omit<TemplateSpec, 'name'> {
  /** Template database name; created or refreshed on demand. */
  template: string;
}

export interface TestDatabase {
  name: string;
  url: string;
  /** Connected; the schema is already at head, nothing is migrated again. */
  dataSource: DataSource;
  /** Destroys the data source and drops the database. */
  drop(): Promise<void>;
}

/** One database per test file: a clone of the migrated template, with a unique name. */
export async function createTestDatabase(spec: TestDatabaseSpec): Promise<TestDatabase> {
  const template = { ...spec, name: spec.template };
  const name = uniqueName(spec.template);
  // Cloned under the template lock: CREATE DATABASE … TEMPLATE fails while anyone is connected to it.
  await withTemplateLock(template, (admin) => admin.query(`CREATE DATABASE "${name}" TEMPLATE "${spec.template}"`));
  const url = databaseUrl(name);
  const dataSource = testDataSource(url, spec);
  try {
    await dataSource.initialize();
  } catch (error) {
    await dropDatabase(name);
    throw error;
  }
  return {
    name,
    url,
    dataSource,
    drop: async () => {
      if (dataSource.isInitialized) await dataSource.destroy();
      await dropDatabase(name);
    },
  };
}
