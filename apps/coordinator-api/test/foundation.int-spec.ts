import { PARTICIPATION_DISCLAIMER } from '@rcs/contracts';
import { spawnService } from '@rcs/testing';
import { CoordinatorHarness, createCoordinatorTestDatabase, startCoordinatorForSuite } from './harness';

const ONCHAIN_FIELDS = [
  'configured',
  'ws_url',
  'contract',
  'metadata_path',
  'metadata_exists',
  'metadata_messages',
  'required_messages_present',
  'chain_reachable',
  'latest_block',
  'contract_info_present',
  'contract_account_free',
  'contract_account_reserved',
  'error',
];

describe('coordinator-api foundation', () => {
  let h: CoordinatorHarness;
  startCoordinatorForSuite({}, (started) => (h = started));

  it('GET /healthz answers an object of strings', async () => {
    const response = await fetch(`${h.url}/healthz`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body.status).toBe('ok');
    expect(Object.values(body).every((v) => typeof v === 'string')).toBe(true);
  });

  it('GET /readyz checks database, Redis and chain and reports the stake check', async () => {
    const response = await fetch(`${h.url}/readyz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: 'ready',
      checks: { database: { ok: true }, redis: { ok: true }, chain: { ok: true, latest_block: expect.any(Number) } },
      stake_check: 'off',
    });
  });

  it('GET /api/v1/disclaimer is the fixed payload clients must display', async () => {
    const body = (await (await fetch(`${h.url}/api/v1/disclaimer`)).json()) as typeof PARTICIPATION_DISCLAIMER;
    expect(body.code).toBe('no_reward_guarantee');
    expect(body.must_display).toBe(true);
    expect(body.text).toBe(body.full_text);
    expect(body.version).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(body.full_text).toMatch(/reward/i);
  });

  it('GET /api/v1/disclaimer.md is the same text as Markdown', async () => {
    const response = await fetch(`${h.url}/api/v1/disclaimer.md`);
    expect(response.headers.get('content-type')).toMatch(/^text\/markdown/);
    expect(await response.text()).toBe(PARTICIPATION_DISCLAIMER.full_text);
  });

  it('GET /api/v1/onchain/status has every field of the spec', async () => {
    const body = (await (await fetch(`${h.url}/api/v1/onchain/status`)).json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual([...ONCHAIN_FIELDS].sort());
    expect(body).toMatchObject({ configured: true, chain_reachable: true, required_messages_present: true, error: null });
  });

  it('serves /openapi.json at version 0.1.0 with these routes, and /docs and /redoc', async () => {
    const document = (await (await fetch(`${h.url}/openapi.json`)).json()) as {
      info: { version: string };
      paths: Record<string, unknown>;
    };
    expect(document.info.version).toBe('0.1.0');
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/healthz', '/readyz', '/api/v1/disclaimer', '/api/v1/disclaimer.md', '/api/v1/onchain/status']),
    );
    expect((await fetch(`${h.url}/docs`)).status).toBe(200);
    expect((await fetch(`${h.url}/redoc`)).status).toBe(200);
  });

  it('answers unknown routes with the 404 shape', async () => {
    const response = await fetch(`${h.url}/api/v1/nothing-here`);
    expect(response.status).toBe(404);
    expect(((await response.json()) as { detail: { error: string } }).detail.error).toBe('not_found');
  });
});

describe('coordinator-api readiness without Redis', () => {
  // Its own process, as operators run it: BullMQ's connection retries against a dead Redis outlive app.close()
  // and would surface in this test process as unhandled rejections (see docs/operations.md).
  it('answers 503 and names the failing dependency; its / index points at both probes', async () => {
    const db = await createCoordinatorTestDatabase();
    const service = await spawnService({
      entry: 'apps/coordinator-api/src/main.ts',
      portVariable: 'COORDINATOR_PORT',
      healthPath: '/healthz',
      env: { COORDINATOR_DATABASE_URL: db.url, REDIS_URL: 'redis://127.0.0.1:1', CHAIN: 'dev', NETUID: '1', LOG_LEVEL: 'silent' },
    });
    try {
      const index = (await (await fetch(`${service.url}/`)).json()) as Record<string, unknown>;
      expect(index).toMatchObject({ service: 'coordinator-api', healthz: '/healthz', readyz: '/readyz', events: '/api/v1/events' });
      const response = await fetch(`${service.url}/readyz`);
      expect(response.status).toBe(503);
      const body = (await response.json()) as { status: string; checks: { redis: { ok: boolean }; database: { ok: boolean } } };
      expect(body.status).toBe('not_ready');
      expect(body.checks.redis.ok).toBe(false);
      expect(body.checks.database.ok).toBe(true);
    } finally {
      await service.stop('SIGKILL');
      await db.drop();
    }
  }, 60_000);
});
