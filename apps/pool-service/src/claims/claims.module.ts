import { DynamicModule, Module } from '@nestjs/common';
import { RouterModule } from '@nestjs/core';
import { PoolServiceConfig } from '../config/config';
import { EpochsModule } from '../epochs/epochs.module';
import { ClaimsController, ClaimSimulationController } from './claims.controller';
import { ClaimsService } from './claims.service';

/** The claim routes at `CLAIMS_MOUNT_PREFIX`; the simulation routes only with `CLAIM_SIMULATION=true`. */
@Module({})
export class ClaimsModule {
  static forRoot(config: PoolServiceConfig): DynamicModule[] {
    if (!config.payout.claimsEnabled) return [];
    return [
      {
        module: ClaimsModule,
        imports: [EpochsModule],
        providers: [ClaimsService],
        controllers: config.payout.claimSimulation ? [ClaimsController, ClaimSimulationController] : [ClaimsController],
      },
      RouterModule.register([{ path: config.payout.claimsMountPrefix, module: ClaimsModule }]),
    ];
  }
}
