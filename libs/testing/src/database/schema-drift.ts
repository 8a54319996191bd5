import type { DataSource } from 'typeorm';
import { pendingSchemaChanges } from '@rcs/schema-diff';
import { SchemaDriftError } from '../errors';
import { createScratchDatabase } from './scratch-database';
import { TemplateSpec, testDataSource } from './template-database';

/** An app's entities and committed migrations, as given to `createTestDatabase`. */
export type SchemaSpec = Omit<TemplateSpec, 'name'>;

/**
 * How the entities disagree with the migrations, on a fresh scratch database migrated to head:
 * the DDL TypeORM would still run to reach the entities (what the migration generator would write),
 * then one SQL comment per constraint or index whose name exists on one side only and that DDL does
 * not already name (TypeORM compares primary keys and single-column uniques without their names).
 * Empty when they agree.
 */
export async function schemaDrift(spec: SchemaSpec): Promise<string[]> {
  const scratch = await createScratchDatabase('schema_drift');
  try {
    const dataSource = testDataSource(scratch.url, spec);
    await dataSource.initialize();
    try {
      await dataSource.runMigrations({ transaction: 'each' });
      const ddl = (await pendingSchemaChanges(dataSource)).up.map((q) => q.query);
      const unnoticed = (await constraintNameDrift(dataSource)).filter((d) => !ddl.some((q) => q.includes(`"${d.name}"`)));
      return [...ddl, ...unnoticed.map((d) => d.note)];
    } finally {
      await dataSource.destroy();
    }
  } finally {
    await scratch.drop();
  }
}

/** Throws `SchemaDriftError`, listing every difference, unless the entities match the migrations. */
export async function expectNoSchemaDrift(spec: SchemaSpec): Promise<void> {
  const drift = await schemaDrift(spec);
  if (drift.length > 0) throw new SchemaDriftError(drift);
}

/** Every constraint and index the entities declare, keyed `table.name`. */
function declaredNames(dataSource: DataSource): Map<string, string> {
  const names = new Map<string, string>();
  for (const m of dataSource.entityMetadatas) {
    const add = (name: string | undefined) => name && names.set(`${m.tableName}.${name}`, name);
    if (m.primaryColumns.length > 0) {
      add(
        m.primaryColumns.find((c) => c.primaryKeyConstraintName)?.primaryKeyConstraintName ??
          dataSource.namingStrategy.primaryKeyName(m.tableName, m.primaryColumns.map((c) => c.databaseName)),
      );
    }
    for (const list of [m.uniques, m.indices, m.foreignKeys, m.checks, m.exclusions]) {
      for (const item of list) add(item.name);
    }
  }
  return names;
}

interface NameDrift {
  name: string;
  note: string;
}

async function constraintNameDrift(dataSource: DataSource): Promise<NameDrift[]> {
  const tables = dataSource.entityMetadatas.map((m) => m.tableName);
  const rows = (await dataSource.query(
    `SELECT c.relname AS table_name, con.conname AS name
       FROM pg_constraint con JOIN pg_class c ON c.oid = con.conrelid
      WHERE c.relnamespace = current_schema()::regnamespace AND con.contype IN ('p', 'u', 'f', 'c', 'x')
        AND c.relname = ANY($1)
     UNION
     SELECT tablename, indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename = ANY($1)`,
    [tables],
  )) as { table_name: string; name: string }[];
  const existing = new Map(rows.map((r) => [`${r.table_name}.${r.name}`, r.name]));
  const declared = declaredNames(dataSource);
  const only = (side: Map<string, string>, other: Map<string, string>, why: string): NameDrift[] =>
    [...side.keys()]
      .filter((key) => !other.has(key))
      .sort()
      .map((key) => ({ name: side.get(key) ?? key, note: `-- ${key}: ${why}` }));
  return [
    ...only(existing, declared, 'in the migrated database, not declared by this name in the entities'),
    ...only(declared, existing, 'declared in the entities, not in the migrated database'),
  ];
}
