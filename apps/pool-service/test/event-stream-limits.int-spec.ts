import { EventStream } from '@rcs/http';
import { describeEventStreamLimits, suiteResource } from '@rcs/testing';
import { startPool } from './support/harness';

describeEventStreamLimits('pool', {
  startForSuite: (env, use) =>
    suiteResource(
      () => startPool(env),
      (h) => h.close(),
      (h) => use({ url: h.url, stream: () => h.app.get(EventStream) }),
    ),
  // The routes a flood once reset: the health documents validators poll and the claim routes.
  answering: ['/healthz', '/health', '/claims/epochs', '/api/v1/miners/leaderboard'],
});
