import 'reflect-metadata';
import { runService } from '@rcs/http';
import { AppModule } from './app.module';
import { validatorRunnerConfigFromProcess } from './config/config';

void runService({
  name: 'validator-runner',
  loadConfig: validatorRunnerConfigFromProcess,
  module: () => AppModule,
  openApi: { title: 'Validator Runner', description: 'Replays leased validator jobs in a sandbox and posts observed metrics.', version: '0.1.0' },
});
