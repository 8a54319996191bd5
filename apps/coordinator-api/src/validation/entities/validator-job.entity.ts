import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { ValidatorJobStatus } from '@rcs/contracts';

/** One replay of a standard or centerless submission by an allowlisted validator (DECISIONS.md §6). */
@Entity({ name: 'validator_jobs' })
export class ValidatorJobEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'uuid' })
  submissionId!: string;

  @Column({ type: 'uuid' })
  taskId!: string;

  @Column({ type: 'text' })
  status!: ValidatorJobStatus;

  @Column({ type: 'integer' })
  attempts!: number;

  @Column({ type: 'text', nullable: true })
  validatorHotkey!: string | null;

  @Column({ type: 'timestamptz', nullable: true })
  leaseExpiresAt!: Date | null;

  @Column({ type: 'timestamptz', nullable: true })
  completedAt!: Date | null;

  /** Why the last lease ended without a result (e.g. expired), for operators. */
  @Column({ type: 'text', nullable: true })
  lastError!: string | null;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;
}
