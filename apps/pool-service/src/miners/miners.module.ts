import { Module } from '@nestjs/common';
import { EpochsModule } from '../epochs/epochs.module';
import { ReputationModule } from '../reputation/reputation.module';
import { MinersController, RootColdkeyController } from './miners.controller';
import { MinersRepository } from './miners.repository';
import { MinersService } from './miners.service';

@Module({
  imports: [ReputationModule, EpochsModule],
  controllers: [MinersController, RootColdkeyController],
  providers: [MinersRepository, MinersService],
  exports: [MinersRepository],
})
export class MinersModule {}
