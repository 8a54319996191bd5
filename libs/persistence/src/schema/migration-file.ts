import { SchemaChanges, SchemaQuery } from '@rcs/schema-diff';

export interface MigrationFile {
  /** `<timestamp>-<kebab-name>.ts` */
  fileName: string;
  /** `<PascalName><timestamp>`: TypeORM orders migrations by the 13-digit suffix. */
  className: string;
  content: string;
}

function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w.length > 0)
    .map((w) => w.toLowerCase());
}

function templateLiteral(sql: string): string {
  return '`' + sql.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${') + '`';
}

function statement(q: SchemaQuery): string {
  const params = q.parameters ? `, ${JSON.stringify(q.parameters)}` : '';
  return `    await queryRunner.query(${templateLiteral(q.query)}${params});`;
}

export class InvalidMigrationNameError extends Error {
  constructor(readonly migrationName: string) {
    super(`Migration name "${migrationName}" has no letters or digits`);
    this.name = 'InvalidMigrationNameError';
  }
}

/** Renders a TypeORM migration class holding the given DDL. */
export function renderMigration(name: string, timestamp: number, changes: SchemaChanges): MigrationFile {
  const parts = words(name);
  if (parts.length === 0) throw new InvalidMigrationNameError(name);
  const className = parts.map((w) => w[0].toUpperCase() + w.slice(1)).join('') + String(timestamp);
  const content = [
    "import { MigrationInterface, QueryRunner } from 'typeorm';",
    '',
    `export class ${className} implements MigrationInterface {`,
    `  name = '${className}';`,
    '',
    '  async up(queryRunner: QueryRunner): Promise<void> {',
    ...changes.up.map(statement),
    '  }',
    '',
    '  async down(queryRunner: QueryRunner): Promise<void> {',
    ...changes.down.map(statement),
    '  }',
    '}',
    '',
  ].join('\n');
  return { fileName: `${timestamp}-${parts.join('-')}.ts`, className, content };
}
