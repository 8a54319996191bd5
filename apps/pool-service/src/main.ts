import 'reflect-metadata';
import { addPoolAuthSecuritySchemes, cryptoReady } from '@rcs/auth';
import { runService } from '@rcs/http';
import { AppModule } from './app.module';
import { poolServiceConfigFromProcess } from './config/config';

void runService({
  name: 'pool-service',
  loadConfig: poolServiceConfigFromProcess,
  module: (config) => AppModule.forRoot(config),
  prepare: cryptoReady,
  links: { leaderboard: '/api/v1/miners/leaderboard', status: '/status', epochs: '/claims/epochs', events: '/api/v1/events' },
  openApi: {
    title: 'Payout (Pool) Service',
    description: 'Pool miners and recipient coldkeys, pool-mining batches and leases, consensus, results and the state of the art.',
    version: '0.1.0',
    configure: addPoolAuthSecuritySchemes,
  },
});
