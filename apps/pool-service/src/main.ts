import 'reflect-metadata';
import { runService } from '@rcs/http';
import { AppModule } from './app.module';
import { poolServiceConfigFromProcess } from './config/config';
import { POOL_OPENAPI } from './openapi';

void runService(AppModule, {
  name: 'pool-service',
  loadConfig: poolServiceConfigFromProcess,
  links: { leaderboard: '/api/v1/miners/leaderboard', status: '/status', epochs: '/claims/epochs', events: '/api/v1/events' },
  openApi: POOL_OPENAPI,
});
