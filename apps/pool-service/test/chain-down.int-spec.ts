import { ErrorCode } from '@rcs/contracts';
import { freePort } from '@rcs/testing';
import { ErrorBody, PoolClient, PoolHarness, signer, startPool } from './support/harness';

/** A chain endpoint nothing answers at: /health says degraded and window-bound routes fail closed. */
describe('pool with the chain unreachable', () => {
  let h: PoolHarness;
  let api: PoolClient;

  beforeAll(async () => {
    h = await startPool({ CHAIN: 'polkadot', CHAIN_WS_URL: `ws://127.0.0.1:${await freePort()}`, CHAIN_TIMEOUT_MS: '300' });
    api = new PoolClient(h.url);
  }, 60_000);

  afterAll(() => h.close());

  it('answers /health 200 with status degraded and no block or window', async () => {
    const health = await api.send<Record<string, unknown>>('GET', '/health');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ status: 'degraded', current_block: null, window_number: null });
    // CHAIN=polkadot without CLAIM_CONTRACT_ADDRESS: no on-chain runtime.
    expect(health.body).toMatchObject({ onchain_runtime: { enabled: false, contract: null } });
  });

  it('refuses a lease with 503 chain_unavailable (the window cannot be read) but still serves stats without a window', async () => {
    const miner = await signer('//Pool//chain-down');
    const lease = await api.signed<ErrorBody>(miner, 'POST', '/api/v1/tasks/lease', {});
    expect([lease.status, lease.body.detail.error]).toEqual([503, ErrorCode.ChainUnavailable]);
    const stats = await api.signed<{ pool: { window_number: number | null } }>(miner, 'GET', '/api/v1/miners/stats');
    expect([stats.status, stats.body.pool.window_number]).toEqual([200, null]);
  });
});
