import 'reflect-metadata';
import { Inject, Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { encodeAddress } from '@polkadot/util-crypto';
import { ChainModule } from './chain.module';
import { CLAIM_CONTRACT_PORT, DEV_CHAIN, SUBTENSOR_PORT } from './chain.tokens';
import { chainConfigFromEnv, type ChainConfig } from './config';
import { DevChain } from './dev/dev-chain';
import type { ClaimContractPort } from './ports/claim-contract.port';
import type { SubtensorPort } from './ports/subtensor.port';
import { LocalRpcServer } from './testing/local-rpc-server';

const hotkey = encodeAddress(new Uint8Array(32).fill(1), 42);

/** A consumer in another module, as the apps' services will be. */
@Injectable()
class StakeReader {
  constructor(
    @Inject(SUBTENSOR_PORT) readonly subtensor: SubtensorPort,
    @Inject(CLAIM_CONTRACT_PORT) readonly claimContract: ClaimContractPort,
    @Inject(DEV_CHAIN) readonly devChain: DevChain | null,
  ) {}
}

@Module({ providers: [StakeReader] })
class ConsumerModule {}

async function boot(config: ChainConfig) {
  @Module({ imports: [ChainModule.forRoot(config), ConsumerModule] })
  class AppModule {}
  const app = await NestFactory.createApplicationContext(AppModule, { logger: false });
  return { app, reader: app.get(StakeReader) };
}

describe('ChainModule', () => {
  it('provides the dev chain behind both ports to every module', async () => {
    const owner = encodeAddress(new Uint8Array(32).fill(2), 42);
    const seed = JSON.stringify({ subnets: { '7': [{ hotkey, stake: '1000', uid: 0, owner }] } });
    const { app, reader } = await boot(chainConfigFromEnv({ CHAIN: 'dev', NETUID: '7', DEV_CHAIN_SEED: seed }));

    expect(reader.devChain).toBeInstanceOf(DevChain);
    expect(reader.subtensor).toBe(reader.devChain);
    expect(await reader.subtensor.alphaStake(hotkey, 7)).toBe(1_000n);
    expect(await reader.subtensor.ownerOf(hotkey)).toBe(owner);
    expect((await reader.claimContract.status()).contract).toBe('dev');
    await app.close();
  });

  it('connects the polkadot adapters lazily and disconnects them on shutdown', async () => {
    const node = await LocalRpcServer.start({ bestBlock: 55 });
    const { app, reader } = await boot(chainConfigFromEnv({ CHAIN: 'polkadot', CHAIN_WS_URL: node.url, NETUID: '7' }));

    expect(reader.devChain).toBeNull();
    expect(node.clientCount).toBe(0);
    expect(await reader.subtensor.latestBlock()).toBe(55);
    expect((await reader.claimContract.status()).latest_block).toBe(55);
    expect(node.clientCount).toBe(1);

    await app.close();
    await node.allClientsClosed();
    await node.close();
  });
});
