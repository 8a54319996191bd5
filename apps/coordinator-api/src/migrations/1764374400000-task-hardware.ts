import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The hardware a task's validators need (our extension): GPUs and memory per GPU, both null when the task states
 * none. The lease query compares them with the capabilities a validator sends with its scan, so a GPU task is
 * never leased to, and never burns its attempts on, a validator without the GPUs.
 */
export class TaskHardware1764374400000 implements MigrationInterface {
  name = 'TaskHardware1764374400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE tasks ADD COLUMN hardware_gpu_count integer, ADD COLUMN hardware_gpu_memory_gb double precision`);
    await queryRunner.query(
      `ALTER TABLE tasks ADD CONSTRAINT tasks_hardware_check CHECK (
         (hardware_gpu_count IS NULL AND hardware_gpu_memory_gb IS NULL) OR
         (hardware_gpu_count BETWEEN 0 AND 64 AND hardware_gpu_memory_gb BETWEEN 0 AND 4096))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE tasks DROP CONSTRAINT tasks_hardware_check, DROP COLUMN hardware_gpu_memory_gb, DROP COLUMN hardware_gpu_count`);
  }
}
