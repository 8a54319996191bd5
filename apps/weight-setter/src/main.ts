import 'reflect-metadata';
import { runService } from '@rcs/http';
import { AppModule } from './app.module';
import { weightSetterConfigFromProcess } from './config/config';

void runService(AppModule, {
  name: 'weight-setter',
  loadConfig: weightSetterConfigFromProcess,
  links: { status: '/status' },
  openApi: { title: 'Weight Setter', description: 'Turns the reward snapshot into validator weights on chain.', version: '0.1.0' },
});
