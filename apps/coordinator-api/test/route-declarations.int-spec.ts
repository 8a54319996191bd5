import { routeDeclarationGaps, routeDeclarations } from '@rcs/testing';
import { CoordinatorHarness, startCoordinatorForSuite } from './harness';

describe('every coordinator route declares its auth class and its errors', () => {
  let h: CoordinatorHarness;
  startCoordinatorForSuite({}, (started) => (h = started));

  it('walks the booted router: each route has one auth class and an @ApiErrors(...) list with its credential errors', () => {
    const routes = routeDeclarations(h.app).map((route) => route.route);
    expect(routes).toEqual(expect.arrayContaining(['POST api/v1/tasks/:task_id/claim', 'POST api/v1/tasks/:task_id/pause', 'GET healthz']));
    expect(routes.length).toBeGreaterThan(35);
    expect(routeDeclarationGaps(h.app)).toEqual([]);
  });

  it('documents every declared code under its one status in /openapi.json', async () => {
    const document = (await (await fetch(`${h.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, { description?: string }> }>>;
    };
    const claim = document.paths['/api/v1/tasks/{task_id}/claim'].post.responses;
    expect(claim['409'].description).toContain('`duplicate_active_claim`');
    expect(claim['401'].description).toContain('`replayed_signature`');
    expect(claim['429'].description).toContain('`rate_limited`');
  });
});
