import { Module } from '@nestjs/common';
import { ResultsController } from './results.controller';
import { ResultsRepository } from './results.repository';
import { ResultsService } from './results.service';

@Module({ controllers: [ResultsController], providers: [ResultsRepository, ResultsService], exports: [ResultsRepository] })
export class ResultsModule {}

export { ResultsRepository } from './results.repository';
