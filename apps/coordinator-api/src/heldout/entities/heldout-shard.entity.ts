import { Column, Entity, Unique } from 'typeorm';
import { CreatedAt, ForeignKeyColumn, TextColumn, UuidPrimaryKey } from '@rcs/persistence';
import { bigintAsNumber } from '../../common/column-transformers';
import { TaskEntity } from '../../tasks/entities/task.entity';

/** A task's held-out shard (DECISIONS.md §6): its bytes live in HELDOUT_STORE_DIR under their SHA-256. */
@Entity({ name: 'heldout_shards' })
@Unique('heldout_shards_task_sha256_unique', ['taskId', 'sha256'])
export class HeldoutShardEntity {
  @UuidPrimaryKey('heldout_shards_pkey')
  id!: string;

  @ForeignKeyColumn(() => TaskEntity, 'heldout_shards_task_id_fkey')
  taskId!: string;

  @TextColumn()
  sha256!: string;

  @TextColumn()
  name!: string;

  @Column({ type: 'bigint', transformer: bigintAsNumber })
  bytes!: number;

  @CreatedAt()
  createdAt!: Date;
}
