import { type DataSource, type EntityManager, type EntityTarget, type FindOptionsWhere, QueryFailedError } from 'typeorm';
import { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/** One row of a raw query, before it is read: TypeORM types raw results as `any`, so nothing about it is trusted. */
export type SqlRow = Readonly<Record<string, unknown>>;

/** A raw query answered something other than the rows its reader expects (a changed query, a wrong cast in SQL). */
export class UnexpectedRowError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnexpectedRowError';
  }
}

/**
 * Runs a raw statement that answers rows (a SELECT, or a CTE around `UPDATE … RETURNING`, which TypeORM
 * otherwise answers as `[rows, count]`) and reads each row through `read`, which checks what it takes.
 */
export async function queryRows<T>(manager: EntityManager, sql: string, parameters: readonly unknown[], read: (row: SqlRow) => T): Promise<T[]> {
  return readRows(await manager.query(sql, [...parameters]), read);
}

function readRows<T>(result: unknown, read: (row: SqlRow) => T): T[] {
  if (!Array.isArray(result)) throw new UnexpectedRowError(`Expected rows, got ${typeof result}`);
  return result.map((row: unknown) => {
    if (typeof row !== 'object' || row === null) throw new UnexpectedRowError(`Expected a row, got ${String(row)}`);
    return read(row as SqlRow);
  });
}

/** The one row a statement always answers (an aggregate without GROUP BY, `SELECT now()`). */
export async function queryOneRow<T>(manager: EntityManager, sql: string, parameters: readonly unknown[], read: (row: SqlRow) => T): Promise<T> {
  const [row, ...more] = await queryRows(manager, sql, parameters, read);
  if (row === undefined || more.length > 0) throw new UnexpectedRowError(`Expected one row, got ${more.length + (row === undefined ? 0 : 1)}`);
  return row;
}

/**
 * Runs an `INSERT … RETURNING id` written in SQL (for what TypeORM's insert cannot say: server clocks,
 * subqueries, casts) and reads the stored row back as its entity, through the same manager.
 */
export async function insertReturningEntity<E extends { id: string }>(
  manager: EntityManager,
  entity: EntityTarget<E>,
  sql: string,
  parameters: readonly unknown[],
): Promise<E> {
  const id = await queryOneRow(manager, sql, parameters, (row) => textColumn(row, 'id'));
  // `id` is the entity's own key (the constraint says so); TypeORM's generic where type cannot see it.
  return manager.findOneByOrFail(entity, { id } as FindOptionsWhere<E>);
}

export function textColumn(row: SqlRow, column: string): string {
  const value = row[column];
  if (typeof value !== 'string') throw unexpected(column, 'text', value);
  return value;
}

export function nullableTextColumn(row: SqlRow, column: string): string | null {
  return row[column] === null ? null : textColumn(row, column);
}

/** An `int` column (pg answers int4 as a number; cast counts with `::int`). */
export function intColumn(row: SqlRow, column: string): number {
  const value = row[column];
  if (typeof value !== 'number' || !Number.isInteger(value)) throw unexpected(column, 'int', value);
  return value;
}

export function nullableIntColumn(row: SqlRow, column: string): number | null {
  return row[column] === null ? null : intColumn(row, column);
}

/** A `double precision` column (pg answers float8 as a number). */
export function nullableFloatColumn(row: SqlRow, column: string): number | null {
  const value = row[column];
  if (value === null) return null;
  if (typeof value !== 'number') throw unexpected(column, 'double precision', value);
  return value;
}

/** A `double precision` column that is never null. */
export function floatColumn(row: SqlRow, column: string): number {
  const value = nullableFloatColumn(row, column);
  if (value === null) throw unexpected(column, 'double precision', value);
  return value;
}

/** A `boolean` column (or an `EXISTS (…)` answered as one). */
export function booleanColumn(row: SqlRow, column: string): boolean {
  const value = row[column];
  if (typeof value !== 'boolean') throw unexpected(column, 'boolean', value);
  return value;
}

export function timestampColumn(row: SqlRow, column: string): Date {
  const value = row[column];
  if (!(value instanceof Date)) throw unexpected(column, 'timestamptz', value);
  return value;
}

export function nullableTimestampColumn(row: SqlRow, column: string): Date | null {
  return row[column] === null ? null : timestampColumn(row, column);
}

/** A `bytea` column (pg answers it as a Buffer). */
export function bytesColumn(row: SqlRow, column: string): Buffer {
  const value = row[column];
  if (!Buffer.isBuffer(value)) throw unexpected(column, 'bytea', value);
  return value;
}

/** A text column holding one of an enum's values. */
export function enumColumn<E extends string>(row: SqlRow, column: string, values: Readonly<Record<string, E>>): E {
  const value = textColumn(row, column);
  const known: readonly string[] = Object.values(values);
  const isMember = (text: string): text is E => known.includes(text);
  if (!isMember(value)) throw unexpected(column, `one of ${known.join(', ')}`, value);
  return value;
}

function unexpected(column: string, expected: string, value: unknown): UnexpectedRowError {
  return new UnexpectedRowError(`Column ${column}: expected ${expected}, got ${value === null ? 'null' : typeof value}`);
}

/** A statement Postgres parses and plans once per connection (a named prepared statement), for the hot paths. */
export interface PreparedStatement {
  readonly name: string;
  readonly text: string;
}

/** A prepared statement was misused: a name given two texts, or a data source that is not a connected Postgres one. */
export class PreparedStatementError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PreparedStatementError';
  }
}

const preparedNames = new Map<string, string>();

/** Data sources whose prepared statements run unnamed (`runPreparedUnnamed`). */
const unnamedSources = new WeakSet<DataSource>();

/**
 * The data source's prepared statements run unnamed, parsed and planned on every use. For connections
 * that all reach one server session (the embedded PGlite behind its socket server), where a statement
 * prepared under a name through one connection already exists for the others ("prepared statement …
 * already exists"), and for a pooler that hands a connection's statements to other clients.
 */
export function runPreparedUnnamed(dataSource: DataSource): void {
  unnamedSources.add(dataSource);
}

/**
 * Names `text` as a prepared statement. A name is the statement's identity on every connection of the
 * process, so one name can never stand for two texts (that would run the wrong statement).
 */
export function preparedStatement(name: string, text: string): PreparedStatement {
  const known = preparedNames.get(name);
  if (known !== undefined && known !== text) throw new PreparedStatementError(`Prepared statement ${name} is already defined with another text`);
  preparedNames.set(name, text);
  return { name, text };
}

/**
 * `queryRows` for a prepared statement: on the caller's transaction's connection when the manager
 * has one, else on any connection of the pool. Postgres skips parsing and planning after a
 * connection's first use, unless the data source runs them unnamed (`runPreparedUnnamed`). A failure
 * is raised as TypeORM raises it (`QueryFailedError` around the driver's error), so constraint and
 * availability checks read it the same way.
 */
export async function queryPreparedRows<T>(
  manager: EntityManager,
  statement: PreparedStatement,
  parameters: readonly unknown[],
  read: (row: SqlRow) => T,
): Promise<T[]> {
  const values = [...parameters];
  const config = unnamedSources.has(manager.connection) ? { text: statement.text, values } : { name: statement.name, text: statement.text, values };
  let rows: unknown;
  try {
    const runner = manager.queryRunner;
    const client = (runner !== undefined && !runner.isReleased ? await runner.connect() : poolOf(manager)) as PgQueryable;
    rows = (await client.query(config)).rows;
  } catch (error) {
    throw new QueryFailedError(statement.text, config.values, error as Error);
  }
  return readRows(rows, read);
}

interface PgQueryable {
  query(config: { name?: string; text: string; values: unknown[] }): Promise<{ rows: unknown }>;
}

function poolOf(manager: EntityManager): PgQueryable {
  const driver = manager.connection.driver;
  if (!(driver instanceof PostgresDriver) || driver.master === undefined) throw new PreparedStatementError('Prepared statements need a connected Postgres data source');
  return driver.master as PgQueryable;
}
