import 'reflect-metadata';
import { cryptoReady } from '@rcs/auth';
import { runService } from '@rcs/http';
import { AppModule } from './app.module';
import { weightSetterConfigFromProcess } from './config/config';

void runService({
  name: 'weight-setter',
  loadConfig: weightSetterConfigFromProcess,
  module: (config) => AppModule.forRoot(config),
  prepare: cryptoReady,
  links: { status: '/status' },
  openApi: { title: 'Weight Setter', description: 'Turns the reward snapshot into validator weights on chain.', version: '0.1.0' },
});
