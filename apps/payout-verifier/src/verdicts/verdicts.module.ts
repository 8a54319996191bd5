import { Module } from '@nestjs/common';
import { RecordVerdictsRepository } from './record-verdicts.repository';
import { VerdictsRepository } from './verdicts.repository';

/** The verifier's verdicts per epoch and per recipient record (its own database), for the pass, the challenger and `/status`. */
@Module({ providers: [VerdictsRepository, RecordVerdictsRepository], exports: [VerdictsRepository, RecordVerdictsRepository] })
export class VerdictsModule {}

export { VerdictsRepository, type FinalVerdict } from './verdicts.repository';
export { RecordVerdictsRepository } from './record-verdicts.repository';
