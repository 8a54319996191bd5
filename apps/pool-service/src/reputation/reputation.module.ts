import { Module } from '@nestjs/common';
import { ReputationRepository } from './reputation.repository';

@Module({ providers: [ReputationRepository], exports: [ReputationRepository] })
export class ReputationModule {}

export { ReputationRepository, type ReputationAward } from './reputation.repository';
