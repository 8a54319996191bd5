import type { DataSource } from 'typeorm';

export interface SchemaQuery {
  query: string;
  parameters?: unknown[];
}

export interface SchemaChanges {
  /** DDL that would bring the database to the entities, in order. */
  up: SchemaQuery[];
  /** DDL that undoes `up`, in order. */
  down: SchemaQuery[];
}

/**
 * What the entities declare that the connected database (migrated to head) lacks. Empty when
 * the committed migrations cover every entity change: assert that in an integration test.
 */
export async function pendingSchemaChanges(dataSource: DataSource): Promise<SchemaChanges> {
  const sql = await oneQueryAtATime(dataSource, () => dataSource.driver.createSchemaBuilder().log());
  const toQuery = (q: { query: string; parameters?: unknown[] }): SchemaQuery =>
    q.parameters && q.parameters.length > 0 ? { query: q.query, parameters: q.parameters } : { query: q.query };
  return { up: sql.upQueries.map(toQuery), down: [...sql.downQueries].reverse().map(toQuery) };
}

/**
 * Runs `read` with every query runner the data source creates meanwhile sending one query at a time.
 * TypeORM 0.3.31's `PostgresQueryRunner.loadTables` (what the schema builder reads the database with)
 * still looks up each array column's type with concurrent queries on its one connection, which pg 8
 * warns about and pg 9 refuses (typeorm#12105 serialized only the outer reads).
 */
async function oneQueryAtATime<T>(dataSource: DataSource, read: () => Promise<T>): Promise<T> {
  const create = dataSource.createQueryRunner;
  dataSource.createQueryRunner = (mode) => {
    const runner = create.call(dataSource, mode);
    const query = runner.query.bind(runner) as (...args: unknown[]) => Promise<unknown>;
    let previous: Promise<unknown> = Promise.resolve();
    runner.query = ((...args: unknown[]) => {
      const next = previous.then(() => query(...args));
      previous = next.catch(() => undefined);
      return next;
    }) as typeof runner.query;
    return runner;
  };
  try {
    return await read();
  } finally {
    dataSource.createQueryRunner = create;
  }
}
