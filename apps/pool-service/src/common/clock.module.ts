import { Global, Module } from '@nestjs/common';
import { PoolClock } from './pool-clock';

/** The chain clock (current block and window), shared by every domain. */
@Global()
@Module({ providers: [PoolClock], exports: [PoolClock] })
export class ClockModule {}
