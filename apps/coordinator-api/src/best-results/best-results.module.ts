import { Module } from '@nestjs/common';
import { BestResultsController } from './best-results.controller';
import { BestResultsService } from './best-results.service';

@Module({
  controllers: [BestResultsController],
  providers: [BestResultsService],
  exports: [BestResultsService],
})
export class BestResultsModule {}

export { BestResultsService, type BestResultConsideration } from './best-results.service';
export { toBestResultDto, toBestResultChangeDto } from './best-result.mapper';
