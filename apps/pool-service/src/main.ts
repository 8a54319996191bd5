import 'reflect-metadata';
import { runService } from '@rcs/http';
import { AppModule } from './app.module';
import { poolServiceConfigFromProcess } from './config/config';

void runService({
  name: 'pool-service',
  loadConfig: poolServiceConfigFromProcess,
  module: () => AppModule,
  openApi: { title: 'Payout (Pool) Service', description: 'Epoch payouts, Merkle claim packages and recipient coldkeys.', version: '0.1.0' },
});
