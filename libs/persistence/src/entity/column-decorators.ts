import { Column, type ColumnOptions, CreateDateColumn, ForeignKey, JoinColumn, ManyToOne, type ObjectType, PrimaryColumn, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';

/**
 * Column decorators for the types our entities repeat, so an entity names each column's type once
 * and a constraint name is the only thing it spells out. Each maps to exactly one TypeORM decorator
 * (or two, for a foreign key column or a joined relation) with the same options, so the schema they
 * declare is the one the plain decorators would.
 */

/** What a column may say besides its type: `nullable`, `default`, a `transformer`, … */
export type ColumnExtras = Omit<ColumnOptions, 'type'>;

/** The extras of a column or relation that may hold null, read as a word: `@TextColumn(nullable)`. */
export const nullable = Object.freeze({ nullable: true } as const);

/** Primary key the application supplies (a natural key or one shared with another table), under the migration's constraint name. */
export function PrimaryKey(type: 'uuid' | 'text' | 'integer' | 'bigint', constraintName: string): PropertyDecorator {
  return PrimaryColumn({ type, primaryKeyConstraintName: constraintName });
}

/** `uuid` primary key that Postgres generates, under the migration's constraint name. */
export function UuidPrimaryKey(constraintName: string): PropertyDecorator {
  return PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: constraintName });
}

/** `integer` or `bigint` primary key from a sequence, under the migration's constraint name. */
export function SerialPrimaryKey(type: 'integer' | 'bigint', constraintName: string): PropertyDecorator {
  return PrimaryGeneratedColumn('increment', { type, primaryKeyConstraintName: constraintName });
}

/** `uuid` column referencing `target`'s primary key through the migration's named foreign key. */
export function ForeignKeyColumn<T>(target: () => ObjectType<T>, constraintName: string, extras: ColumnExtras = {}): PropertyDecorator {
  const column = Column({ type: 'uuid', ...extras });
  const foreignKey = ForeignKey(target, { name: constraintName });
  // Applied in the order of `@Column() @ForeignKey()` written one above the other.
  return (entity, property) => {
    foreignKey(entity, property);
    column(entity, property);
  };
}

/** `text` column. */
export function TextColumn(extras: ColumnExtras = {}): PropertyDecorator {
  return Column({ type: 'text', ...extras });
}

/** `integer` column. */
export function IntegerColumn(extras: ColumnExtras = {}): PropertyDecorator {
  return Column({ type: 'integer', ...extras });
}

/** `double precision` column. */
export function DoubleColumn(extras: ColumnExtras = {}): PropertyDecorator {
  return Column({ type: 'double precision', ...extras });
}

/** `numeric(precision, scale)` column, read as a string so no digit is lost. */
export function NumericColumn(precision: number, scale: number, extras: ColumnExtras = {}): PropertyDecorator {
  return Column({ type: 'numeric', precision, scale, ...extras });
}

/** `jsonb` column. */
export function JsonbColumn(extras: ColumnExtras = {}): PropertyDecorator {
  return Column({ type: 'jsonb', ...extras });
}

/** `timestamptz` column. */
export function TimestampColumn(extras: ColumnExtras = {}): PropertyDecorator {
  return Column({ type: 'timestamptz', ...extras });
}

/** `timestamptz` set by the database when the row is inserted. */
export function CreatedAt(): PropertyDecorator {
  return CreateDateColumn({ type: 'timestamptz' });
}

/** `timestamptz` set by the database when the row is inserted and by TypeORM on every update it makes. */
export function UpdatedAt(): PropertyDecorator {
  return UpdateDateColumn({ type: 'timestamptz' });
}

/** What a `ManyToOneOn` relation may say: it is required unless `nullable`; it joins the target's primary key unless told a column. */
export interface ManyToOneOnOptions {
  nullable?: boolean;
  referencedColumnName?: string;
}

/** Many-to-one relation joined on `column` (declared beside it as a column of its own) through the migration's named foreign key. */
export function ManyToOneOn<T>(target: () => ObjectType<T>, column: string, constraintName: string, options: ManyToOneOnOptions = {}): PropertyDecorator {
  const { referencedColumnName } = options;
  const relation = ManyToOne(target, { nullable: options.nullable ?? false });
  const join = JoinColumn({ name: column, ...(referencedColumnName === undefined ? {} : { referencedColumnName }), foreignKeyConstraintName: constraintName });
  // Applied in the order of `@ManyToOne() @JoinColumn()` written one above the other.
  return (entity, property) => {
    join(entity, property);
    relation(entity, property);
  };
}
