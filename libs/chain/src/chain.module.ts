import { Global, Inject, Logger, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { closeChainAdapters, createChainAdapters, type ChainAdapters } from './chain-adapters';
import { CLAIM_CONTRACT_PORT, DEV_CHAIN, SUBTENSOR_PORT } from './chain.tokens';
import type { ChainConfig } from './config';

const CHAIN_ADAPTERS = Symbol('CHAIN_ADAPTERS');

/** Provides `SUBTENSOR_PORT`, `CLAIM_CONTRACT_PORT` and `DEV_CHAIN` everywhere; closes the chain on shutdown. */
@Global()
@Module({})
export class ChainModule implements OnApplicationShutdown {
  constructor(@Inject(CHAIN_ADAPTERS) private readonly adapters: ChainAdapters) {}

  static forRoot(config: ChainConfig): DynamicModule {
    return {
      module: ChainModule,
      global: true,
      providers: [
        { provide: CHAIN_ADAPTERS, useFactory: (): Promise<ChainAdapters> => createChainAdapters(config, (message) => new Logger('Chain').warn(message)) },
        { provide: SUBTENSOR_PORT, useFactory: (adapters: ChainAdapters) => adapters.subtensor, inject: [CHAIN_ADAPTERS] },
        { provide: CLAIM_CONTRACT_PORT, useFactory: (adapters: ChainAdapters) => adapters.claimContract, inject: [CHAIN_ADAPTERS] },
        { provide: DEV_CHAIN, useFactory: (adapters: ChainAdapters) => adapters.devChain, inject: [CHAIN_ADAPTERS] },
      ],
      exports: [SUBTENSOR_PORT, CLAIM_CONTRACT_PORT, DEV_CHAIN],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await closeChainAdapters(this.adapters);
  }
}
