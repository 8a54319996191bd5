import { InvalidMigrationNameError, renderMigration } from './migration-file';

describe('renderMigration', () => {
  it('names the file in kebab-case and the class in PascalCase with the timestamp TypeORM orders by', () => {
    const file = renderMigration('addNote view_count', 1700000000000, { up: [], down: [] });
    expect(file.fileName).toBe('1700000000000-add-note-view-count.ts');
    expect(file.className).toBe('AddNoteViewCount1700000000000');
    expect(file.content).toContain("name = 'AddNoteViewCount1700000000000';");
  });

  it('escapes template-literal syntax in SQL and keeps parameters', () => {
    const file = renderMigration('odd', 1700000000000, {
      up: [{ query: "COMMENT ON TABLE \"t\" IS 'a `b` ${c} \\d'", parameters: [1, 'x'] }],
      down: [{ query: 'SELECT 1' }],
    });
    expect(file.content).toContain(
      "    await queryRunner.query(`COMMENT ON TABLE \"t\" IS 'a \\`b\\` \\${c} \\\\d'`, [1,\"x\"]);",
    );
    expect(file.content).toContain('    await queryRunner.query(`SELECT 1`);');
  });

  it('refuses a name without letters or digits', () => {
    expect(() => renderMigration('--', 1, { up: [], down: [] })).toThrow(InvalidMigrationNameError);
  });
});
