import 'reflect-metadata';
import { addAuthSecuritySchemes } from '@rcs/auth';
import { runService } from '@rcs/http';
import { AppModule } from './app.module';
import { coordinatorConfigFromProcess } from './config/config';

void runService(AppModule, {
  name: 'coordinator-api',
  loadConfig: coordinatorConfigFromProcess,
  links: { dashboard: '/api/v1/dashboard', tasks: '/api/v1/tasks', events: '/api/v1/events' },
  // Each validator runner scans every few seconds; the pool and the weight setter fetch the snapshot on their schedules.
  polledRoutes: ['/api/v1/validator/submissions/scan', '/api/v1/reward-snapshot'],
  openApi: {
    title: 'Research Coordinator API',
    description:
      'Tasks, claims, work items, submissions, validator replay, peer evaluation, best results, idea rewards, reward policy and snapshot, on-chain status.',
    version: '0.1.0',
    configure: addAuthSecuritySchemes,
  },
});
