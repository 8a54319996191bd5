import { BtAuthSigner, poolAuthMessage } from '@rcs/auth';
import { ErrorCode, PARTICIPATION_DISCLAIMER } from '@rcs/contracts';
import { encodeAddress } from '@polkadot/util-crypto';
import { ErrorBody, expectStatus, ItemsBody, PoolClient, PoolHarness, signer, startPool } from './support/harness';

/** Every route with its auth class (spec 001 tables). `:id` routes use ids that do not exist. */
const SIGNED: [string, string][] = [
  ['POST', '/api/v1/miners/register'],
  ['GET', '/api/v1/miners/stats'],
  ['GET', '/api/v1/miners/recipient-coldkey'],
  ['GET', '/api/v1/tasks/pending_evaluations'],
  ['POST', '/api/v1/tasks/request'],
  ['POST', '/api/v1/tasks/lease'],
  ['POST', '/api/v1/tasks/00000000-0000-4000-8000-000000000000/submit_lease'],
  ['POST', '/api/v1/tasks/00000000-0000-4000-8000-000000000000/submit_evolution'],
  ['POST', '/api/v1/tasks/00000000-0000-4000-8000-000000000000/submit_evaluation'],
  ['GET', '/api/v1/results/'],
  ['POST', '/api/v1/results/verify/1'],
];
const RECIPIENT: [string, string][] = [
  ['PUT', '/api/v1/miners/recipient-coldkey'],
  ['POST', '/api/v1/miners/recipient-coldkey'],
  ['POST', '/api/v1/miners/coldkey_address/update'],
  ['POST', '/coldkey_address/update'],
];
const PUBLIC: [string, string][] = [
  ['GET', '/health'],
  ['GET', '/healthz'],
  ['GET', '/readyz'],
  ['GET', '/api/v1/disclaimer'],
  ['GET', '/api/v1/disclaimer.md'],
  ['GET', '/disclaimer.md'],
  ['GET', '/api/v1/miners/leaderboard'],
  ['GET', '/api/v1/results/sota'],
  ['GET', '/openapi.json'],
  ['GET', '/docs'],
  ['GET', '/redoc'],
];

describe('pool auth classes (spec 001, DECISIONS.md §2 Pool)', () => {
  let h: PoolHarness;
  let api: PoolClient;
  let alice: BtAuthSigner;
  let bob: BtAuthSigner;
  let dave: BtAuthSigner;

  beforeAll(async () => {
    [alice, bob, dave] = await Promise.all([signer('//Alice'), signer('//Bob'), signer('//Dave')]);
    h = await startPool({ VALIDATOR_HOTKEYS: dave.hotkey });
    api = new PoolClient(h.url);
  });

  afterAll(() => h.close());

  it.each([...SIGNED, ...RECIPIENT])('%s %s answers 401 missing_signature without the headers', async (method, path) => {
    const reply = await api.send<ErrorBody>(method, path, method === 'GET' ? undefined : {});
    expect([reply.status, reply.body.detail.error]).toEqual([401, ErrorCode.MissingSignature]);
  });

  it.each(PUBLIC)('%s %s answers 200 without headers', async (method, path) => {
    expect((await api.send(method, path)).status).toBe(200);
  });

  it('serves the disclaimer from libs/contracts in JSON and Markdown, also at the root', async () => {
    expect((await api.send('GET', '/api/v1/disclaimer')).body).toEqual(PARTICIPATION_DISCLAIMER);
    expect((await api.send('GET', '/api/v1/disclaimer.md')).body).toBe(PARTICIPATION_DISCLAIMER.full_text);
    expect((await api.send('GET', '/disclaimer.md')).body).toBe(PARTICIPATION_DISCLAIMER.full_text);
  });

  it('documents version 0.1.0 with every pool route and its security', async () => {
    const doc = (
      await api.send<{ info: { version: string }; paths: Record<string, Record<string, { security?: unknown[]; responses?: Record<string, unknown> }>> }>(
        'GET',
        '/openapi.json',
      )
    ).body;
    expect(doc.info.version).toBe('0.1.0');
    expect(Object.keys(doc.paths['/readyz']?.get?.responses ?? {})).toEqual(expect.arrayContaining(['200', '503']));
    for (const [method, path] of [...SIGNED, ...RECIPIENT]) {
      const templated = path.replace(/\/$/, '').replace(/[0-9a-f-]{36}/, '{batch_id}').replace('verify/1', 'verify/{result_id}');
      const key = Object.keys(doc.paths).find((p) => p.replace(/\{[a-z_]+\}/g, '{}') === templated.replace(/\{[a-z_]+\}/g, '{}'));
      expect({ path, documented: key !== undefined && doc.paths[key][method.toLowerCase()]?.security !== undefined }).toEqual({ path, documented: true });
    }
  });

  it('answers /health with window, current block and on-chain runtime status (the dev chain’s contract is the runtime)', async () => {
    const health = (await api.send<Record<string, unknown>>('GET', '/health')).body;
    // CHAIN=dev carries its claim contract: the on-chain runtime is enabled, as BitSota's pool verifier requires.
    expect(health).toMatchObject({
      status: 'healthy',
      latest_epoch: null,
      window_blocks: 360,
      onchain_runtime: { enabled: true, contract: 'dev', contract_status: { read_error: null, is_veto_active: false, active_veto_count: 0 }, proof_api: { enabled: true } },
    });
    expect(health.current_block).toEqual(expect.any(Number));
    expect(health.window_number).toBe(Math.floor((health.current_block as number) / 360));
  });

  it('refuses a signature by another key, a stale timestamp and a replayed POST with 401', async () => {
    const forged = { ...alice.signPool(), 'X-Key': bob.hotkey };
    const bad = await api.send<ErrorBody>('POST', '/api/v1/miners/register', undefined, forged);
    expect([bad.status, bad.body.detail.error]).toEqual([401, ErrorCode.InvalidSignature]);
    const stale = await api.send<ErrorBody>('POST', '/api/v1/miners/register', undefined, { ...alice.signPool(Math.floor(Date.now() / 1000) - 301) });
    expect([stale.status, stale.body.detail.error]).toEqual([401, ErrorCode.StaleTimestamp]);
    const headers = { ...alice.signPool() };
    expectStatus(await api.send('POST', '/api/v1/miners/register', undefined, headers), 200);
    const replayed = await api.send<ErrorBody>('POST', '/api/v1/miners/register', undefined, headers);
    expect([replayed.status, replayed.body.detail.error]).toEqual([401, ErrorCode.ReplayedSignature]);
  });

  it('accepts a signed GET twice (one-time signatures apply to POST/PUT only)', async () => {
    const headers = { ...alice.signPool() };
    expectStatus(await api.send('GET', '/api/v1/miners/stats', undefined, headers), 200);
    expectStatus(await api.send('GET', '/api/v1/miners/stats', undefined, headers), 200);
  });

  it('never lets a signature seen on a GET authorise a POST afterwards (`auth:{ts}` does not bind the method)', async () => {
    const headers = { ...bob.signPool() };
    expectStatus(await api.send('GET', '/api/v1/miners/recipient-coldkey', undefined, headers), 200);
    for (const [method, path] of [
      ['POST', '/api/v1/miners/register'],
      ['POST', '/api/v1/tasks/lease'],
    ]) {
      const reply = await api.send<Partial<ErrorBody>>(method, path, {}, headers);
      expect([method, path, reply.status, reply.body.detail?.error]).toEqual([method, path, 401, ErrorCode.ReplayedSignature]);
    }
    // Reads may still reuse it.
    expectStatus(await api.send('GET', '/api/v1/miners/stats', undefined, headers), 200);
    // A validator's GET spends its signature for the verify POST too.
    const validator = { ...dave.signPool() };
    expectStatus(await api.send('GET', '/api/v1/results/?status=pending', undefined, validator), 200);
    const verify = await api.send<Partial<ErrorBody>>('POST', '/api/v1/results/verify/1', undefined, validator);
    expect([verify.status, verify.body.detail?.error]).toEqual([401, ErrorCode.ReplayedSignature]);
  });

  it('accepts the legacy form where X-Timestamp is `auth:{seconds}` and the signature covers it', async () => {
    const ts = Math.floor(Date.now() / 1000);
    const legacy = { 'X-Key': bob.hotkey, 'X-Timestamp': poolAuthMessage(ts), 'X-Signature': bob.signPool(ts)['X-Signature'] };
    const reply = await api.send<{ hotkey: string }>('POST', '/api/v1/miners/register', undefined, legacy);
    expectStatus(reply, 200);
    expect(reply.body.hotkey).toBe(bob.hotkey);
  });

  it('treats two SS58 spellings of one key as one miner', async () => {
    const kusama = encodeAddress(alice.hotkey, 2);
    expect(kusama).not.toBe(alice.hotkey);
    const ts = Math.floor(Date.now() / 1000);
    const headers = { 'X-Key': kusama, 'X-Timestamp': String(ts), 'X-Signature': alice.signPool(ts)['X-Signature'] };
    const reply = await api.send<{ hotkey: string }>('POST', '/api/v1/miners/register', undefined, headers);
    expectStatus(reply, 200);
    expect(reply.body.hotkey).toBe(alice.hotkey);
    const rows = (await h.db.dataSource.query(`SELECT hotkey FROM miners WHERE hotkey IN ($1, $2)`, [alice.hotkey, kusama])) as unknown[];
    expect(rows).toEqual([{ hotkey: alice.hotkey }]);
  });

  it('answers register and stats with the fields of §11', async () => {
    const [miner] = await Promise.all([signer('//Pool//shape')]);
    const registered = await api.signed(miner, 'POST', '/api/v1/miners/register');
    expect(registered.body).toEqual({ hotkey: miner.hotkey, registered_at: expect.any(String), last_seen_at: expect.any(String), reputation: 0, recipient_coldkey: null });
    const stats = await api.signed(miner, 'GET', '/api/v1/miners/stats');
    expect(stats.body).toEqual({
      miner: {
        hotkey: miner.hotkey,
        reputation: 0,
        evaluations: 0,
        evaluations_in_consensus: 0,
        evolutions: 0,
        evolutions_scored: 0,
        active_assignment: null,
        last_seen_at: expect.any(String),
        recipient_coldkey: null,
      },
      pool: { miners: expect.any(Number), active_miners_24h: expect.any(Number), algorithms: 0, pending_evaluations: 0, window_number: expect.any(Number), latest_epoch: null },
    });
    const board = await api.send<ItemsBody>('GET', '/api/v1/miners/leaderboard?limit=0');
    expect([board.status, board.body.detail[0].loc]).toEqual([422, ['query', 'limit']]);
  });

  it('refuses sim_window_number unless POOL_DEV_WINDOWS is on, and answers 404 no_tasks_available on an empty pool', async () => {
    const simulated = await api.signed<ItemsBody>(alice, 'POST', '/api/v1/tasks/lease', { sim_window_number: 3 });
    expect([simulated.status, simulated.body.detail[0].loc]).toEqual([422, ['body', 'sim_window_number']]);
    const empty = await api.signed<ErrorBody>(alice, 'POST', '/api/v1/tasks/lease', {});
    expect([empty.status, empty.body.detail.error]).toEqual([404, ErrorCode.NoTasksAvailable]);
    const batch = await api.signed<ErrorBody>(alice, 'POST', '/api/v1/tasks/request', { task_type: 'evaluate' });
    expect([batch.status, batch.body.detail.error]).toEqual([404, ErrorCode.NoTasksAvailable]);
  });

  it('answers 422 extra_forbidden for properties named like Object.prototype members on every pool route, bodies the route ignores included', async () => {
    const reserved = (json: string): unknown => JSON.parse(json);
    const expectRefused = (reply: { status: number; body: unknown }, loc: (string | number)[]) =>
      expect([reply.status, reply.body]).toEqual([422, { detail: [{ type: 'extra_forbidden', loc, msg: expect.any(String), input: expect.anything() }] }]);
    expectRefused(await api.signed(alice, 'POST', '/api/v1/tasks/lease', reserved('{"__proto__": {"eval_batch_size": 1}}')), ['body', '__proto__']);
    expectRefused(await api.signed(alice, 'POST', '/api/v1/tasks/request', reserved('{"task_type": "evolve", "constructor": {"prototype": {}}}')), ['body', 'constructor']);
    expectRefused(await api.signed(alice, 'POST', '/api/v1/miners/register', reserved('{"metadata": {"__proto__": {"admin": true}}}')), ['body', 'metadata', '__proto__']);
    expectRefused(await api.signed(dave, 'POST', '/api/v1/results/verify/1', reserved('{"constructor": 1}')), ['body', 'constructor']);
    const ts = Math.floor(Date.now() / 1000);
    for (const path of ['/api/v1/miners/recipient-coldkey', '/coldkey_address/update']) {
      const body = reserved(`{"recipient_coldkey": "${bob.hotkey}", "__proto__": {"recipient_coldkey": "${alice.hotkey}"}}`);
      expectRefused(await api.send('POST', path, body, { ...alice.signRecipientUpdate(ts, bob.hotkey) }), ['body', '__proto__']);
    }
    expectRefused(await api.send('GET', '/api/v1/miners/leaderboard?limit=5&constructor=1'), ['query', 'constructor']);
    expectRefused(await api.signed(alice, 'GET', '/api/v1/results/?toString=1'), ['query', 'toString']);
    // Unknown properties with ordinary names are still ignored.
    expectStatus(await api.signed(alice, 'POST', '/api/v1/miners/register', { metadata: { constructed: true } }), 200);
  });

  it('keeps pool routes compatible: unknown body properties are ignored, known ones still bounded, POST answers 200', async () => {
    const ok = await api.signed(alice, 'POST', '/api/v1/miners/register', { public_address: alice.hotkey, signature: 'x', message: 'y', metadata: { a: 1 } });
    expectStatus(ok, 200);
    const bounded = await api.signed<{ detail: { loc: unknown[]; type: string }[] }>(alice, 'POST', '/api/v1/tasks/lease', { eval_batch_size: 1, extra: true });
    expect(bounded.status).toBe(422);
    expect(bounded.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'eval_batch_size'], type: 'greater_than_equal' })]);
  });
});
