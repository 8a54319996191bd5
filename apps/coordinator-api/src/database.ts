import type { EntityClassOrSchema, MigrationClass } from '@rcs/persistence';
import { ClaimEntity } from './claims/entities/claim.entity';
import { CompetitionCore1763683200000 } from './migrations/1763683200000-competition-core';
import { SubmissionEntity } from './submissions/entities/submission.entity';
import { TaskEntity } from './tasks/entities/task.entity';
import { ValidatorJobEntity } from './validation/entities/validator-job.entity';
import { WorkItemEntity } from './work-items/entities/work-item.entity';

/** Entities and migrations of the coordinator database, in one list each. */
export const COORDINATOR_ENTITIES: EntityClassOrSchema[] = [
  TaskEntity,
  ClaimEntity,
  WorkItemEntity,
  SubmissionEntity,
  ValidatorJobEntity,
];

export const COORDINATOR_MIGRATIONS: MigrationClass[] = [CompetitionCore1763683200000];
