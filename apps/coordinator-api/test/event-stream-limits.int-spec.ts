import { EventStream } from '@rcs/http';
import { describeEventStreamLimits } from '@rcs/testing';
import { startCoordinatorForSuite } from './harness';

describeEventStreamLimits('coordinator', {
  startForSuite: (env, use) => startCoordinatorForSuite(env, (h) => use({ url: h.url, stream: () => h.app.get(EventStream) })),
  answering: ['/healthz', '/readyz', '/api/v1/tasks'],
});
