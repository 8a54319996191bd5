/**
 * Generates or checks migrations against a scratch database migrated to head.
 *
 *   node -r @swc-node/register libs/persistence/src/cli/migration.ts generate apps/<app>/src/data-source.ts <name> [--url <postgres-url>] [--out <dir>]
 *   node -r @swc-node/register libs/persistence/src/cli/migration.ts check apps/<app>/src/data-source.ts [--url <postgres-url>]
 *
 * Without --url the scratch database is an embedded PGlite in a temporary directory; with it, a
 * throwaway database is created on that server and dropped afterwards.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../database/open-database';
import type { DatabaseSchema } from '../schema/database-schema';
import { renderMigration } from '../schema/migration-file';
import { pendingSchemaChanges, SchemaChanges } from '@rcs/schema-diff';
import { ScratchDatabase, scratchEmbedded, scratchOnServer } from './scratch-database';

const USAGE =
  'usage: migration.ts generate <data-source.ts> <name> [--url <postgres-url>] [--out <dir>]\n' +
  '       migration.ts check <data-source.ts> [--url <postgres-url>]';

const logger = { log: (m: string) => console.error(m), warn: (m: string) => console.error(m) };

function isSchema(value: unknown): value is DatabaseSchema {
  const s = value as Partial<DatabaseSchema> | undefined;
  return Array.isArray(s?.entities) && Array.isArray(s?.migrations) && typeof s?.migrationsDir === 'string';
}

async function loadSchema(file: string): Promise<DatabaseSchema> {
  const mod = (await import(path.resolve(file))) as { default?: unknown };
  if (!isSchema(mod.default)) {
    throw new Error(`${file} must default-export defineDatabaseSchema({ entities, migrations, migrationsDir })`);
  }
  return mod.default;
}

async function diffAgainstScratch(schema: DatabaseSchema, scratch: ScratchDatabase): Promise<SchemaChanges> {
  const db = await openDatabase({
    url: scratch.url,
    embeddedDir: scratch.embeddedDir,
    entities: schema.entities,
    migrations: schema.migrations,
    logger,
    applicationName: 'rcs-migration-cli',
  });
  try {
    return await pendingSchemaChanges(db.dataSource);
  } finally {
    await db.close();
  }
}

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { url: { type: 'string' }, out: { type: 'string' } },
  });
  const [command, dataSourceFile, name] = positionals;
  if (!dataSourceFile || !(command === 'check' || (command === 'generate' && name))) {
    console.error(USAGE);
    return 2;
  }
  const schema = await loadSchema(dataSourceFile);
  const scratch = values.url ? await scratchOnServer(values.url) : await scratchEmbedded();
  let changes: SchemaChanges;
  try {
    changes = await diffAgainstScratch(schema, scratch);
  } finally {
    await scratch.dispose();
  }

  if (command === 'check') {
    if (changes.up.length === 0) {
      console.log('Entities match the migrations.');
      return 0;
    }
    console.log(`Entities differ from the migrations; a new migration would run:\n${changes.up.map((q) => q.query).join(';\n')};`);
    return 1;
  }
  if (changes.up.length === 0) {
    console.error('Entities match the migrations: nothing to generate.');
    return 1;
  }
  const file = renderMigration(name, Date.now(), changes);
  const dir = path.resolve(values.out ?? schema.migrationsDir);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, file.fileName), file.content, { flag: 'wx' });
  console.log(path.join(dir, file.fileName));
  console.error(`Add ${file.className} to the app's migrations list.`);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  },
);
