import { databaseUrl, dropDatabase, uniqueName, withAdmin } from './admin';

export interface ScratchDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** An empty database with a unique name, for tests that run migrations themselves. */
export async function createScratchDatabase(prefix = 'scratch'): Promise<ScratchDatabase> {
  const name = uniqueName(prefix);
  await withAdmin((admin) => admin.query(`CREATE DATABASE "${name}"`));
  return { name, url: databaseUrl(name), drop: () => dropDatabase(name) };
}
