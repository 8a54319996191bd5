import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { AddWidgetColor1700000000002, CreateWidgets1700000000001 } from '../../test/fixtures/widget-migrations';
import { Widget } from '../../test/fixtures/widget.entity';
import { testDatabaseUrlBase } from '../config';
import { InvalidDatabaseNameError } from '../errors';
import { createScratchDatabase } from './scratch-database';
import { createTemplateDatabase, migrationFingerprint } from './template-database';
import { createTestDatabase, TestDatabase } from './test-database';

async function admin<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: testDatabaseUrlBase() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function databaseExists(name: string): Promise<boolean> {
  return admin(async (c) => (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name])).rowCount === 1);
}

async function databaseComment(name: string): Promise<string | null> {
  return admin(async (c) => {
    const { rows } = await c.query<{ comment: string | null }>(
      `SELECT shobj_description(oid, 'pg_database') AS comment FROM pg_database WHERE datname = $1`,
      [name],
    );
    return rows[0]?.comment ?? null;
  });
}

describe('template and test databases', () => {
  // A template of our own, so "built" is deterministic whatever earlier runs left behind.
  const template = `testing_tpl_${randomBytes(4).toString('hex')}`;
  const spec = { entities: [Widget], migrations: [CreateWidgets1700000000001, AddWidgetColor1700000000002] };
  const opened: TestDatabase[] = [];

  afterAll(async () => {
    for (const db of opened) await db.drop();
    await admin((c) => c.query(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`));
  });

  it('builds the template once even when asked concurrently, then reuses it', async () => {
    const results = await Promise.all([1, 2, 3].map(() => createTemplateDatabase({ name: template, ...spec })));
    expect(results.filter((r) => r.built)).toHaveLength(1);
    expect(await databaseComment(template)).toBe(migrationFingerprint(spec.migrations));
    expect((await createTemplateDatabase({ name: template, ...spec })).built).toBe(false);
  });

  it('rebuilds the template when the migrations change', async () => {
    const fewer = { entities: [], migrations: [CreateWidgets1700000000001] };
    expect((await createTemplateDatabase({ name: template, ...fewer })).built).toBe(true);
    expect(await databaseComment(template)).toBe(migrationFingerprint(fewer.migrations));
    expect((await createTemplateDatabase({ name: template, ...spec })).built).toBe(true);
  });

  it('clones isolated databases at head from the template', async () => {
    const [a, b] = await Promise.all([
      createTestDatabase({ template, ...spec }),
      createTestDatabase({ template, ...spec, dataSourceOptions: { applicationName: 'clone-b' } }),
    ]);
    opened.push(a, b);
    expect(a.name).not.toBe(b.name);
    expect(a.url.endsWith(`/${a.name}`)).toBe(true);

    const applied = await a.dataSource.query<{ name: string }[]>('SELECT name FROM migrations ORDER BY id');
    expect(applied.map((m) => m.name)).toEqual(['CreateWidgets1700000000001', 'AddWidgetColor1700000000002']);
    await a.dataSource.getRepository(Widget).save({ id: 'only-in-a', color: 'red' });
    expect(await a.dataSource.getRepository(Widget).count()).toBe(1);
    expect(await b.dataSource.getRepository(Widget).count()).toBe(0);

    const [{ application_name }] = await b.dataSource.query<{ application_name: string }[]>(
      'SELECT application_name FROM pg_stat_activity WHERE pid = pg_backend_pid()',
    );
    expect(application_name).toBe('clone-b');
  });

  it('drop() closes the connection and removes the database', async () => {
    const db = await createTestDatabase({ template, ...spec });
    await db.drop();
    expect(db.dataSource.isInitialized).toBe(false);
    expect(await databaseExists(db.name)).toBe(false);
  });

  it('creates and drops empty scratch databases', async () => {
    const scratch = await createScratchDatabase('testing_scratch');
    expect(scratch.name).toMatch(/^testing_scratch_[0-9a-f]{8}$/);
    expect(await databaseExists(scratch.name)).toBe(true);
    await scratch.drop();
    expect(await databaseExists(scratch.name)).toBe(false);
  });

  it('refuses names it would have to quote', async () => {
    await expect(createTemplateDatabase({ name: 'Robert"; DROP', ...spec })).rejects.toBeInstanceOf(InvalidDatabaseNameError);
    await expect(createScratchDatabase('x'.repeat(60))).rejects.toBeInstanceOf(InvalidDatabaseNameError);
  });
});
