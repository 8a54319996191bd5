import { DynamicModule, Module } from '@nestjs/common';
import type { KeyringPair } from '@polkadot/keyring/types';
import { loadValidatorKeypair } from '@rcs/auth';
import { ChainModule } from '@rcs/chain';
import { createHealthController } from '@rcs/http';
import { PersistenceModule } from '@rcs/persistence';
import type { PayoutVerifierConfig } from './config/config';
import { VERIFIER_ENTITIES, VERIFIER_MIGRATIONS } from './database';
import { StatusController } from './status/status.controller';
import { StatusService } from './status/status.service';
import { VerdictsModule } from './verdicts/verdicts.module';
import { ChallengerService } from './verify/challenger.service';
import { VerifierInputs } from './verify/inputs';
import { VERIFIER_CONFIG, VERIFIER_INPUTS, VERIFIER_KEYPAIR } from './verify/tokens';
import { VerifierService } from './verify/verifier.service';

/** /healthz, /readyz, /status, /metrics, /evidence/{epoch}; its own database and the verifier's pass. */
@Module({})
export class AppModule {
  static forRoot(config: PayoutVerifierConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PersistenceModule.forRootAsync({
          useFactory: () => ({
            url: config.databaseUrl,
            embeddedDir: config.embeddedDataDir,
            preparedStatements: config.databasePreparedStatements,
            entities: VERIFIER_ENTITIES,
            migrations: VERIFIER_MIGRATIONS,
            applicationName: 'payout-verifier',
          }),
        }),
        ChainModule.forRoot(config.chain),
        VerdictsModule,
      ],
      controllers: [createHealthController('payout-verifier', '0.1.0', ['healthz']), StatusController],
      providers: [
        { provide: VERIFIER_CONFIG, useValue: config },
        { provide: VERIFIER_KEYPAIR, useFactory: (): Promise<KeyringPair> => loadValidatorKeypair(config.identity) },
        {
          provide: VERIFIER_INPUTS,
          useFactory: () =>
            new VerifierInputs({ coordinatorUrl: config.coordinatorUrl, poolUrl: config.poolUrl, claimsMountPrefix: config.claimsMountPrefix, timeoutMs: config.httpTimeoutMs }),
        },
        ChallengerService,
        VerifierService,
        StatusService,
      ],
    };
  }
}
