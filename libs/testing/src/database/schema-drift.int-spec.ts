import { AddWidgetColor1700000000002, CreateWidgets1700000000001 } from '../../test/fixtures/widget-migrations';
import { IndexedWidget, NamedWidget } from '../../test/fixtures/widget-variants.entity';
import { Widget } from '../../test/fixtures/widget.entity';
import { SchemaDriftError } from '../errors';
import { expectNoSchemaDrift, schemaDrift } from './schema-drift';

const migrations = [CreateWidgets1700000000001, AddWidgetColor1700000000002];

describe('schema drift', () => {
  it('is empty when the entities declare what the migrations create', async () => {
    expect(await schemaDrift({ entities: [NamedWidget], migrations })).toEqual([]);
    await expect(expectNoSchemaDrift({ entities: [NamedWidget], migrations })).resolves.toBeUndefined();
  });

  it('lists the DDL a generated migration would run, and the error message prints it', async () => {
    const spec = { entities: [IndexedWidget], migrations };
    expect(await schemaDrift(spec)).toEqual(['CREATE INDEX "widgets_color_idx" ON "widgets" ("color") ']);
    const error = await expectNoSchemaDrift(spec).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SchemaDriftError);
    expect((error as SchemaDriftError).message).toContain('CREATE INDEX "widgets_color_idx" ON "widgets" ("color") ;');
  });

  it('reports constraints whose names differ, which TypeORM itself does not compare', async () => {
    // Widget leaves its primary key unnamed: TypeORM would call it PK_<hash>, Postgres named it widgets_pkey.
    const drift = await schemaDrift({ entities: [Widget], migrations });
    expect(drift).toEqual([
      '-- widgets.widgets_pkey: in the migrated database, not declared by this name in the entities',
      expect.stringMatching(/^-- widgets\.PK_[0-9a-f]+: declared in the entities, not in the migrated database$/),
    ]);
  });
});
