import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createScratchDatabase, testDatabaseUrlBase } from '@rcs/testing';
import schema from '../../test/fixtures/data-source';
import { runTs } from '../../test/run-ts';
import { MigrationClass } from '../database/data-source-options';
import { openDatabase } from '../database/open-database';
import { pendingSchemaChanges } from '@rcs/schema-diff';

const CLI = 'libs/persistence/src/cli/migration.ts';
const BEHIND = 'libs/persistence/test/fixtures/data-source-behind.ts';
const CURRENT = 'libs/persistence/test/fixtures/data-source.ts';

describe('migration CLI', () => {
  let out: string;

  beforeAll(async () => {
    out = await mkdtemp(path.join(tmpdir(), 'rcs-migrations-'));
  });

  afterAll(async () => {
    await rm(out, { recursive: true, force: true });
  });

  it('generates the migration the entities need, and it brings a database to the entities', async () => {
    const run = await runTs(CLI, ['generate', BEHIND, 'add-note-view-count', '--url', testDatabaseUrlBase(), '--out', out]);
    expect(run.code).toBe(0);
    const [file] = await readdir(out);
    expect(file).toMatch(/^\d{13}-add-note-view-count\.ts$/);
    expect(run.stdout.trim()).toBe(path.join(out, file));

    const generated = (await import(path.join(out, file))) as Record<string, MigrationClass>;
    const [migration] = Object.values(generated);
    const scratch = await createScratchDatabase('persistence_cli');
    const db = await openDatabase({
      url: scratch.url,
      embeddedDir: 'unused-when-a-url-is-set',
      entities: schema.entities,
      migrations: [schema.migrations[0], migration],
      logger: { log: () => undefined, warn: () => undefined },
    });
    try {
      expect(await pendingSchemaChanges(db.dataSource)).toEqual({ up: [], down: [] });
    } finally {
      await db.close();
      await scratch.drop();
    }
  });

  it('check exits 1 and prints the missing DDL when entities are ahead of the migrations', async () => {
    const run = await runTs(CLI, ['check', BEHIND, '--url', testDatabaseUrlBase()]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('ALTER TABLE "notes" ADD "view_count" integer NOT NULL DEFAULT \'0\'');
  });

  it('check exits 0 on the embedded scratch server when the migrations cover the entities', async () => {
    const run = await runTs(CLI, ['check', CURRENT]);
    expect(run.stdout.trim()).toBe('Entities match the migrations.');
    expect(run.code).toBe(0);
  }, 60_000);

  it('prints usage and exits 2 without a migration name', async () => {
    const run = await runTs(CLI, ['generate', CURRENT]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('usage:');
  });
});
