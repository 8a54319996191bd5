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
  const sql = await dataSource.driver.createSchemaBuilder().log();
  const toQuery = (q: { query: string; parameters?: unknown[] }): SchemaQuery =>
    q.parameters && q.parameters.length > 0 ? { query: q.query, parameters: q.parameters } : { query: q.query };
  return { up: sql.upQueries.map(toQuery), down: [...sql.downQueries].reverse().map(toQuery) };
}
