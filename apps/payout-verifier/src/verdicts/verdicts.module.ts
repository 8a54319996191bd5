import { Module } from '@nestjs/common';
import { VerdictsRepository } from './verdicts.repository';

/** The verifier's verdicts per epoch (its own database), for the pass, the challenger and `/status`. */
@Module({ providers: [VerdictsRepository], exports: [VerdictsRepository] })
export class VerdictsModule {}

export { VerdictsRepository, type FinalVerdict } from './verdicts.repository';
