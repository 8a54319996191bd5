import { Entity, ForeignKey, Index } from 'typeorm';
import { IntegerColumn, PrimaryKey, TimestampColumn } from '@rcs/persistence';
import { TaskEntity } from '../../tasks/entities/task.entity';

/**
 * One row per (miner, competition) with an accepted submission: how many, and the latest decision (to the
 * millisecond, as the API prints it, so a page cursor names a row exactly). Kept by triggers on `submissions`
 * (migration MinerTaskResults1764633600000), so `GET /api/v1/miners/{hotkey}/results` reads one page of it by
 * index instead of counting every accepted submission of the miner on each read.
 */
@Entity({ name: 'miner_task_results' })
@Index('miner_task_results_page_idx', ['minerHotkey', 'latestDecidedAt', 'taskId']) // (miner_hotkey, latest_decided_at DESC, task_id DESC)
export class MinerTaskResultEntity {
  @PrimaryKey('text', 'miner_task_results_pkey')
  minerHotkey!: string;

  @PrimaryKey('uuid', 'miner_task_results_pkey')
  @ForeignKey(() => TaskEntity, { name: 'miner_task_results_task_id_fkey' })
  taskId!: string;

  @IntegerColumn()
  accepted!: number;

  @TimestampColumn()
  latestDecidedAt!: Date;
}
