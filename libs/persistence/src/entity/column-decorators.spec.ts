import { Column, CreateDateColumn, ForeignKey, getMetadataArgsStorage, JoinColumn, ManyToOne, PrimaryColumn, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import {
  CreatedAt,
  DoubleColumn,
  ForeignKeyColumn,
  IntegerColumn,
  JsonbColumn,
  ManyToOneOn,
  nullable,
  NumericColumn,
  PrimaryKey,
  SerialPrimaryKey,
  TextColumn,
  TimestampColumn,
  UpdatedAt,
  UuidPrimaryKey,
} from './column-decorators';

class Parent {}

/** Every helper, one column each. */
class WithHelpers {
  @UuidPrimaryKey('things_pkey') id!: string;
  @SerialPrimaryKey('bigint', 'things_seq_pkey') seq!: string;
  @ForeignKeyColumn(() => Parent, 'things_parent_id_fkey') parentId!: string;
  @PrimaryKey('text', 'things_pkey') code!: string;
  @ForeignKeyColumn(() => Parent, 'things_other_id_fkey', nullable) otherId!: string | null;
  @TextColumn() name!: string;
  @TextColumn({ nullable: true, default: 'x' }) note!: string | null;
  @IntegerColumn({ default: 0 }) count!: number;
  @DoubleColumn(nullable) score!: number | null;
  @NumericColumn(20, 0) amount!: string;
  @JsonbColumn({ default: {} }) doc!: Record<string, unknown>;
  @TimestampColumn(nullable) seenAt!: Date | null;
  @CreatedAt() createdAt!: Date;
  @UpdatedAt() updatedAt!: Date;
  @ManyToOneOn(() => Parent, 'parent_id', 'things_parent_fkey') parent?: Parent;
  @ManyToOneOn(() => Parent, 'other_code', 'things_other_fkey', { nullable: true, referencedColumnName: 'code' }) other?: Parent | null;
}

/** The same columns written with TypeORM's decorators. */
class WithTypeOrm {
  @PrimaryGeneratedColumn('uuid', { primaryKeyConstraintName: 'things_pkey' }) id!: string;
  @PrimaryGeneratedColumn('increment', { type: 'bigint', primaryKeyConstraintName: 'things_seq_pkey' }) seq!: string;
  @Column({ type: 'uuid' }) @ForeignKey(() => Parent, { name: 'things_parent_id_fkey' }) parentId!: string;
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'things_pkey' }) code!: string;
  @Column({ type: 'uuid', nullable: true }) @ForeignKey(() => Parent, { name: 'things_other_id_fkey' }) otherId!: string | null;
  @Column({ type: 'text' }) name!: string;
  @Column({ type: 'text', nullable: true, default: 'x' }) note!: string | null;
  @Column({ type: 'integer', default: 0 }) count!: number;
  @Column({ type: 'double precision', nullable: true }) score!: number | null;
  @Column({ type: 'numeric', precision: 20, scale: 0 }) amount!: string;
  @Column({ type: 'jsonb', default: {} }) doc!: Record<string, unknown>;
  @Column({ type: 'timestamptz', nullable: true }) seenAt!: Date | null;
  @CreateDateColumn({ type: 'timestamptz' }) createdAt!: Date;
  @UpdateDateColumn({ type: 'timestamptz' }) updatedAt!: Date;
  @ManyToOne(() => Parent, { nullable: false }) @JoinColumn({ name: 'parent_id', foreignKeyConstraintName: 'things_parent_fkey' }) parent?: Parent;
  @ManyToOne(() => Parent, { nullable: true })
  @JoinColumn({ name: 'other_code', referencedColumnName: 'code', foreignKeyConstraintName: 'things_other_fkey' })
  other?: Parent | null;
}

/** What TypeORM stored for a class, without the class itself, in declaration order. */
function declared(target: object) {
  const storage = getMetadataArgsStorage();
  const strip = <T extends { target: unknown }>({ target: _target, ...rest }: T) => rest;
  return {
    columns: storage.columns.filter((c) => c.target === target).map(strip),
    generations: storage.generations.filter((g) => g.target === target).map(strip),
    foreignKeys: storage.foreignKeys
      .filter((f) => f.target === target)
      .map(({ type, ...f }) => ({ ...strip(f), referenced: (type as () => unknown)() })),
    relations: storage.relations
      .filter((r) => r.target === target)
      .map(({ type, ...r }) => ({ ...strip(r), related: (type as () => unknown)() })),
    joinColumns: storage.joinColumns.filter((j) => j.target === target).map(strip),
  };
}

describe('column decorators', () => {
  it('declare exactly what the TypeORM decorators they stand for declare, in the same order', () => {
    const helpers = declared(WithHelpers);
    expect(helpers.columns).toHaveLength(14);
    expect(helpers.foreignKeys).toHaveLength(2);
    expect(helpers.relations).toHaveLength(2);
    expect(helpers.joinColumns).toHaveLength(2);
    expect(helpers).toEqual(declared(WithTypeOrm));
  });
});
