import { DynamicModule, Module } from '@nestjs/common';
import { RouterModule } from '@nestjs/core';
import { PoolServiceConfig } from '../config/config';
import { EpochsModule } from '../epochs/epochs.module';
import { PayoutClaimsController, PayoutClaimSimulationController } from './payout-claims.controller';
import { PayoutClaimsService } from './payout-claims.service';

/** The claim routes at `CLAIMS_MOUNT_PREFIX`; the simulation routes only with `CLAIM_SIMULATION=true`. */
@Module({})
export class PayoutClaimsModule {
  static forRoot(config: PoolServiceConfig): DynamicModule[] {
    if (!config.payout.claimsEnabled) return [];
    return [
      {
        module: PayoutClaimsModule,
        imports: [EpochsModule],
        providers: [PayoutClaimsService],
        controllers: config.payout.claimSimulation ? [PayoutClaimsController, PayoutClaimSimulationController] : [PayoutClaimsController],
      },
      RouterModule.register([{ path: config.payout.claimsMountPrefix, module: PayoutClaimsModule }]),
    ];
  }
}
