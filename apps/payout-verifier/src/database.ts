import type { EntityClassOrSchema, MigrationClass } from '@rcs/persistence';
import { PayoutVerifier1796100000000 } from './migrations/1796100000000-payout-verifier';
import { RecipientRecordVerdicts1796100036000 } from './migrations/1796100036000-recipient-record-verdicts';
import { EpochVerdictEntity } from './verdicts/epoch-verdict.entity';
import { RecordVerdictEntity } from './verdicts/record-verdict.entity';

/** Entities and migrations of the payout verifier's own database, in one list each. */
export const VERIFIER_ENTITIES: EntityClassOrSchema[] = [EpochVerdictEntity, RecordVerdictEntity];

export const VERIFIER_MIGRATIONS: MigrationClass[] = [PayoutVerifier1796100000000, RecipientRecordVerdicts1796100036000];
