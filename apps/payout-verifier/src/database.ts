import type { EntityClassOrSchema, MigrationClass } from '@rcs/persistence';
import { PayoutVerifier1796100000000 } from './migrations/1796100000000-payout-verifier';
import { EpochVerdictEntity } from './verdicts/epoch-verdict.entity';

/** Entities and migrations of the payout verifier's own database, in one list each. */
export const VERIFIER_ENTITIES: EntityClassOrSchema[] = [EpochVerdictEntity];

export const VERIFIER_MIGRATIONS: MigrationClass[] = [PayoutVerifier1796100000000];
