import 'reflect-metadata';
import { addAuthSecuritySchemes, cryptoReady } from '@rcs/auth';
import { runService } from '@rcs/http';
import { AppModule } from './app.module';
import { coordinatorConfigFromProcess } from './config/config';

void runService({
  name: 'coordinator-api',
  loadConfig: coordinatorConfigFromProcess,
  module: (config) => AppModule.forRoot(config),
  prepare: cryptoReady,
  openApi: {
    title: 'Research Coordinator API',
    description:
      'Tasks, claims, work items, submissions, validator replay, peer evaluation, best results, idea rewards, reward policy and snapshot, on-chain status.',
    version: '0.1.0',
    configure: addAuthSecuritySchemes,
  },
});
