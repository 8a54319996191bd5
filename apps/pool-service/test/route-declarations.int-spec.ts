import { routeDeclarationGaps, routeDeclarations, suiteResource } from '@rcs/testing';
import { PoolHarness, startPool } from './support/harness';

describe('every pool route declares its auth class and its errors', () => {
  let h: PoolHarness;
  suiteResource(() => startPool(), (pool) => pool.close(), (started) => (h = started));

  it('walks the booted router: each route has one auth class and an @ApiErrors(...) list with its credential errors', () => {
    const routes = routeDeclarations(h.app).map((route) => route.route);
    expect(routes).toEqual(expect.arrayContaining(['POST api/v1/tasks/request', 'PUT api/v1/miners/recipient-coldkey', 'GET health']));
    expect(routes.length).toBeGreaterThan(20);
    expect(routeDeclarationGaps(h.app)).toEqual([]);
  });
});
