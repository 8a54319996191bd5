import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BtAuthSigner, buildMessage, canonicalBody, cryptoReady, keypairFromUri, splitUrl, verifySignature } from '@rcs/auth';
import { freePort } from '@rcs/testing';
import { CoordinatorClient, readRewardSnapshot } from './coordinator.client';
import { InvalidResponseError, ServiceAnswerError, ServiceUnreachableError } from './errors';

/** A snapshot as the coordinator writes it (default policy, one competition). */
function snapshotDocument(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    generated_at: '2026-11-23T12:00:00.000Z',
    score_ema_days: 10,
    competition_count: 1,
    reward_policy: { version: 3, pools: [], validator_weights: { mode: 'local', targets: [], version_key: 1337 } },
    competitions: [{ competition_id: 't1', slug: 'a', title: 'A', weight: 1, miners: [{ miner_hotkey: '5F', score: 1.5 }] }],
    ...overrides,
  };
}

describe('CoordinatorClient over real HTTP', () => {
  let server: Server;
  let baseUrl: string;
  let answer: (req: IncomingMessage, res: ServerResponse) => void = () => undefined;
  const seen: IncomingMessage[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(req);
      answer(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const reply = (status: number, body: unknown) => (answer = (_req, res) => res.writeHead(status, { 'content-type': 'application/json' }).end(typeof body === 'string' ? body : JSON.stringify(body)));

  it('reads the reward snapshot and checks it against the contract', async () => {
    reply(200, snapshotDocument({ extra_field_of_a_newer_coordinator: true }));
    const snapshot = await new CoordinatorClient({ baseUrl, timeoutMs: 5_000 }).rewardSnapshot();
    expect(snapshot.reward_policy.validator_weights.mode).toBe('local');
    expect(snapshot.competitions[0].miners).toEqual([{ miner_hotkey: '5F', score: 1.5 }]);
    expect(seen.at(-1)?.url).toBe('/api/v1/reward-snapshot');
  });

  it('refuses a document that breaks the contract, naming the fields', async () => {
    const client = new CoordinatorClient({ baseUrl, timeoutMs: 5_000 });
    reply(200, snapshotDocument({ reward_policy: { validator_weights: { mode: 'everything', targets: [], version_key: -1 } }, competitions: [{ competition_id: 't', slug: 's', weight: 1, miners: [{ miner_hotkey: 'x', score: 0 }] }] }));
    const failure = await client.rewardSnapshot().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(InvalidResponseError);
    expect((failure as InvalidResponseError).problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^reward_policy\.validator_weights\.mode/),
        expect.stringMatching(/^reward_policy\.validator_weights\.version_key/),
        'competitions[0].miners[0] must be {miner_hotkey: string, score: number > 0}',
      ]),
    );
    reply(200, 'not json');
    await expect(client.rewardSnapshot()).rejects.toThrow(/not JSON/);
  });

  it('reads the snapshot with the exact bytes served, checked and with the policy defaults in place', async () => {
    const served = Buffer.from(`\ufeff${JSON.stringify(snapshotDocument(), null, 3)}\n`, 'utf8');
    answer = (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(served);
    const read = await new CoordinatorClient({ baseUrl, timeoutMs: 5_000 }).rewardSnapshotRead();
    expect(Buffer.from(read.bytes).equals(served)).toBe(true);
    expect(read.snapshot.competitions[0].miners).toEqual([{ miner_hotkey: '5F', score: 1.5 }]);
    expect(read.snapshot.reward_policy).toMatchObject({ version: 3, local_competition: { enabled: true, weight: 1, target_pool_id: 'main', reward_scope: 'competition_only' } });
    expect(readRewardSnapshot(read.bytes)).toEqual(read.snapshot);
  });

  it('refuses, in the read with bytes too, a document that breaks the contract and an error answer', async () => {
    const client = new CoordinatorClient({ baseUrl, timeoutMs: 5_000 });
    reply(200, snapshotDocument({ competitions: [{ competition_id: 't', slug: 's', weight: 1, miners: [{ miner_hotkey: 'x', score: -1 }] }] }));
    await expect(client.rewardSnapshotRead()).rejects.toMatchObject({ problems: ['competitions[0].miners[0] must be {miner_hotkey: string, score: number > 0}'] });
    reply(200, 'not json');
    await expect(client.rewardSnapshotRead()).rejects.toThrow(/not JSON/);
    reply(503, { detail: { error: 'snapshot_unavailable', message: 'not built yet' } });
    await expect(client.rewardSnapshotRead()).rejects.toMatchObject({ status: 503, code: 'snapshot_unavailable' });
  });

  it('reports error answers with their DECISIONS §1 code, and an unreachable coordinator', async () => {
    reply(503, { detail: { error: 'snapshot_unavailable', message: 'not built yet' } });
    await expect(new CoordinatorClient({ baseUrl, timeoutMs: 5_000 }).rewardSnapshot()).rejects.toMatchObject({ status: 503, code: 'snapshot_unavailable' });
    await expect(new CoordinatorClient({ baseUrl, timeoutMs: 5_000 }).rewardSnapshot()).rejects.toBeInstanceOf(ServiceAnswerError);
    const closed = `http://127.0.0.1:${await freePort()}`;
    await expect(new CoordinatorClient({ baseUrl: closed, timeoutMs: 5_000 }).rewardSnapshot()).rejects.toBeInstanceOf(ServiceUnreachableError);
  });

  it('signs requests marked signed with BT-AUTH-V1', async () => {
    await cryptoReady();
    const signer = new BtAuthSigner(await keypairFromUri('//Bob'));
    reply(200, { ok: true });
    const client = new CoordinatorClient({ baseUrl, timeoutMs: 5_000, signer });
    const body = JSON.stringify({ limit: 2 });
    await client.http.json({ method: 'POST', path: '/api/v1/validator/submissions/scan?x=1', body, signed: true });
    const headers = seen.at(-1)?.headers ?? {};
    const { path, query } = splitUrl('/api/v1/validator/submissions/scan?x=1');
    const message = buildMessage({ method: 'POST', path, query, timestamp: String(headers['x-timestamp']), canonicalBody: canonicalBody(body) });
    expect(headers['x-hotkey']).toBe(signer.hotkey);
    expect(verifySignature(message, String(headers['x-signature']), signer.hotkey)).toBe(true);
  });
});
