import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { ClaimStatus } from '@rcs/contracts';

@Entity({ name: 'claims' })
export class ClaimEntity {
  @PrimaryGeneratedColumn('uuid')
  id!: string;

  @Column({ type: 'uuid' })
  taskId!: string;

  /** Set when the claim was made through a work item. */
  @Column({ type: 'uuid', nullable: true })
  workItemId!: string | null;

  @Column({ type: 'text' })
  minerHotkey!: string;

  @Column({ type: 'text' })
  claimDescription!: string;

  @Column({ type: 'uuid', nullable: true })
  baseSubmissionId!: string | null;

  @Column({ type: 'text' })
  status!: ClaimStatus;

  @Column({ type: 'timestamptz' })
  expiresAt!: Date;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt!: Date;
}
