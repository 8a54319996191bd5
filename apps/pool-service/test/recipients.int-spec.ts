import { encodeAddress } from '@polkadot/util-crypto';
import { createHash } from 'node:crypto';
import { BtAuthSigner, cryptoReady, recipientUpdateMessage, verifySignature } from '@rcs/auth';
import { ErrorCode, type MinerStatsDto } from '@rcs/contracts';
import type { ClaimPackage } from '@rcs/merkle';
import { EpochsService } from '../src/epochs/epochs.service';
import { FakeCoordinator, snapshotOf } from '@rcs/testing';
import { bootEpochCheckDone, ErrorBody, expectStatus, ItemsBody, PoolClient, PoolHarness, signer, startPool } from './support/harness';
import { testRolloverEnv } from './support/own-stores';

type Recipient = { hotkey: string; recipient_coldkey: string | null; updated_at: string | null; published_in_epoch: number | null; declared_coldkey: string | null };

describe('recipient coldkeys (DECISIONS.md §11 Recipients)', () => {
  let h: PoolHarness;
  let api: PoolClient;
  let miner: BtAuthSigner;
  let other: BtAuthSigner;
  let coldA: string;
  let coldB: string;
  let coldC: string;

  const lookup = async (hotkey: string): Promise<Recipient> => {
    const reply = await api.send<Recipient>('GET', `/api/v1/miners/recipient-coldkey/${hotkey}`);
    expectStatus(reply, 200);
    return reply.body;
  };

  beforeAll(async () => {
    h = await startPool();
    api = new PoolClient(h.url);
    [miner, other] = await Promise.all([signer('//Recipient//miner'), signer('//Recipient//other')]);
    [coldA, coldB, coldC] = (await Promise.all(['//Cold//a', '//Cold//b', '//Cold//c'].map(signer))).map((s) => s.hotkey);
  });

  afterAll(() => h.close());

  it.each([
    ['PUT', '/api/v1/miners/recipient-coldkey', 'recipient_coldkey'],
    ['POST', '/api/v1/miners/recipient-coldkey', 'coldkey_address'],
    ['POST', '/api/v1/miners/coldkey_address/update', 'recipient_coldkey'],
    ['POST', '/api/v1/miners/coldkey_address/update', 'coldkey_address'],
  ])('%s %s with body %s stores the recipient, canonical, with its history', async (method, path, field) => {
    const coldkey = field === 'coldkey_address' ? coldB : coldA;
    // A Kusama spelling of the coldkey: signed as sent, stored canonical.
    const spelled = encodeAddress(coldkey, 2);
    const reply = await api.recipient<Recipient & { status: string }>(miner, method, path, spelled, field);
    expectStatus(reply, 200);
    expect(reply.body).toEqual({ status: 'updated', hotkey: miner.hotkey, recipient_coldkey: coldkey, updated_at: expect.any(String) });
    expect(await lookup(miner.hotkey)).toMatchObject({ recipient_coldkey: coldkey, published_in_epoch: null });
    const history = (await h.db.dataSource.query(`SELECT coldkey, signed_coldkey, route FROM recipient_changes WHERE hotkey = $1 ORDER BY id DESC LIMIT 1`, [
      miner.hotkey,
    ])) as { coldkey: string; signed_coldkey: string; route: string }[];
    expect(history[0]).toEqual({ coldkey, signed_coldkey: spelled, route: `${method} ${path}` });
  });

  it('answers 422 for a coldkey that is not SS58, and for a missing one', async () => {
    const bad = await api.recipient<ItemsBody>(miner, 'PUT', '/api/v1/miners/recipient-coldkey', 'not-an-address');
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0]).toMatchObject({ loc: ['body', 'recipient_coldkey'], type: 'ss58_invalid' });
    const missing = await api.send<ItemsBody>('PUT', '/api/v1/miners/recipient-coldkey', {}, { ...miner.signRecipientUpdate(Math.floor(Date.now() / 1000), coldA) });
    expect([missing.status, missing.body.detail[0].type]).toEqual([422, 'missing']);
  });

  it('answers 401 when the signature covers another coldkey, or is the plain pool signature', async () => {
    const ts = Math.floor(Date.now() / 1000);
    const overOther = await api.send<ErrorBody>('PUT', '/api/v1/miners/recipient-coldkey', { recipient_coldkey: coldC }, { ...miner.signRecipientUpdate(ts, coldA) });
    expect([overOther.status, overOther.body.detail.error]).toEqual([401, ErrorCode.InvalidSignature]);
    const plain = await api.send<ErrorBody>('PUT', '/api/v1/miners/recipient-coldkey', { recipient_coldkey: coldC }, { ...miner.signPool(ts) });
    expect([plain.status, plain.body.detail.error]).toEqual([401, ErrorCode.InvalidSignature]);
    expect((await lookup(miner.hotkey)).recipient_coldkey).not.toBe(coldC);
  });

  it('refuses a replayed recipient update', async () => {
    const headers = { ...other.signRecipientUpdate(Math.floor(Date.now() / 1000), coldA) };
    expectStatus(await api.send('POST', '/api/v1/miners/recipient-coldkey', { recipient_coldkey: coldA }, headers), 200);
    const again = await api.send<ErrorBody>('POST', '/api/v1/miners/recipient-coldkey', { recipient_coldkey: coldA }, headers);
    expect([again.status, again.body.detail.error]).toEqual([401, ErrorCode.ReplayedSignature]);
  });

  it('looks the recipient up by any spelling of the hotkey, publicly and signed', async () => {
    await api.recipient(miner, 'PUT', '/api/v1/miners/recipient-coldkey', coldA);
    const canonical = await lookup(miner.hotkey);
    expect(await lookup(encodeAddress(miner.hotkey, 0))).toEqual(canonical);
    const own = await api.signed<Recipient>(miner, 'GET', '/api/v1/miners/recipient-coldkey');
    expect(own.body).toEqual(canonical);
    const unknown = await api.send<ErrorBody>('GET', `/api/v1/miners/recipient-coldkey/${coldC}`);
    expect([unknown.status, unknown.body.detail.error]).toEqual([404, ErrorCode.HotkeyNotFound]);
  });

  it('the root /coldkey_address/update records only the declaration, never the recipient', async () => {
    await api.recipient(miner, 'PUT', '/api/v1/miners/recipient-coldkey', coldA);
    const reply = await api.recipient(miner, 'POST', '/coldkey_address/update', encodeAddress(coldC, 2), 'coldkey_address');
    expectStatus(reply, 200);
    expect(reply.body).toEqual({ status: 'success', coldkey_address: coldC });
    expect(await lookup(miner.hotkey)).toMatchObject({ recipient_coldkey: coldA, declared_coldkey: coldC });
  });
});

/**
 * Who an epoch's leaf pays (DECISIONS.md §11 Recipients): the stored recipient, else the coldkey declared on the
 * root compatibility route (BitSota's GUI sets only that one), and what the recipient lookup and stats say of it.
 */
describe('recipients at rollover (real Postgres, Redis, HTTP, dev chain)', () => {
  const coordinator = new FakeCoordinator();
  const coldkeyNobodyHas = encodeAddress(new Uint8Array(32).fill(9), 42);
  let h: PoolHarness;
  let api: PoolClient;
  let epochs: EpochsService;
  let gui: BtAuthSigner;
  let both: BtAuthSigner;
  let idle: BtAuthSigner;
  let declared: string;
  let stored: string;
  let later: string;

  const lookup = async (hotkey: string): Promise<Recipient> => (await api.send<Recipient>('GET', `/api/v1/miners/recipient-coldkey/${hotkey}`)).body;
  const leafOf = async (hotkey: string, epoch: number) => (await api.send<ClaimPackage>('GET', `/claims/epoch/${epoch}/proof/${hotkey}`)).body;
  const latestEpochInStats = async (who: BtAuthSigner) => (await api.signed<MinerStatsDto>(who, 'GET', '/api/v1/miners/stats')).body.pool.latest_epoch;

  beforeAll(async () => {
    await coordinator.start();
    h = await startPool({
      COORDINATOR_URL: coordinator.url,
      ...testRolloverEnv(1000),
      DEV_CHAIN_BLOCK_TIME_MS: '3600000',
    });
    await bootEpochCheckDone(h.app);
    api = new PoolClient(h.url);
    epochs = h.app.get(EpochsService);
    [gui, both, idle] = await Promise.all([signer('//RolloverRecipient//gui'), signer('//RolloverRecipient//both'), signer('//RolloverRecipient//idle')]);
    [declared, stored, later] = (await Promise.all(['//RolloverCold//declared', '//RolloverCold//stored', '//RolloverCold//later'].map(signer))).map((s) => s.hotkey);
  }, 60_000);

  afterAll(async () => {
    await h?.close();
    await coordinator.close();
  });

  /** The epoch after the newest stored one, so that each test rolls over windows of its own. */
  const nextEpoch = async (): Promise<number> =>
    ((await h.db.dataSource.query(`SELECT coalesce(max(epoch), 9) + 1 AS next FROM epochs`)) as { next: number }[])[0].next;

  it('pays a miner that only declared its coldkey to that coldkey; a stored recipient always takes precedence', async () => {
    // The GUI's only recipient call.
    expectStatus(await api.recipient(gui, 'POST', '/coldkey_address/update', declared, 'coldkey_address'), 200);
    // Declared first, then stored through a governing route, then declared again: the stored one governs.
    expectStatus(await api.recipient(both, 'POST', '/coldkey_address/update', declared, 'coldkey_address'), 200);
    expectStatus(await api.recipient(both, 'PUT', '/api/v1/miners/recipient-coldkey', stored), 200);
    expectStatus(await api.recipient(both, 'POST', '/coldkey_address/update', later, 'coldkey_address'), 200);

    const first = await nextEpoch();
    coordinator.snapshot = snapshotOf([
      [gui.hotkey, 1],
      [both.hotkey, 1],
    ]);
    expect(await epochs.rollover(first)).toMatchObject({ rollover: 'stored', publication: 'published' });
    expect(await leafOf(gui.hotkey, first)).toMatchObject({ hotkey: gui.hotkey, recipient_coldkey: declared, amount: '500' });
    expect(await leafOf(both.hotkey, first)).toMatchObject({ hotkey: both.hotkey, recipient_coldkey: stored, amount: '500' });
    const document = JSON.parse(await (await fetch(`${h.url}/claims/epoch/${first}/allocation`)).text()) as { entries: { hotkey: string; recipient_coldkey: string | null }[] };
    expect(document.entries.find((entry) => entry.hotkey === gui.hotkey)?.recipient_coldkey).toBe(declared);

    // Once the GUI miner stores a recipient, that one pays; a later declaration changes nothing.
    expectStatus(await api.recipient(gui, 'POST', '/api/v1/miners/coldkey_address/update', stored), 200);
    expectStatus(await api.recipient(gui, 'POST', '/coldkey_address/update', later, 'coldkey_address'), 200);
    coordinator.snapshot = snapshotOf([[both.hotkey, 1]]);
    const second = await nextEpoch();
    expect(await epochs.rollover(second)).toMatchObject({ rollover: 'stored', publication: 'published' });
    expect(await leafOf(gui.hotkey, second)).toMatchObject({ recipient_coldkey: stored, amount: '500' });
    expect(await leafOf(both.hotkey, second)).toMatchObject({ recipient_coldkey: stored, amount: '1500' });
  }, 60_000);

  it('names the newest published epoch whose leaf carries the recipient (published_in_epoch), and the latest published epoch in stats', async () => {
    const miner = await signer('//RolloverRecipient//published');
    expectStatus(await api.recipient(miner, 'PUT', '/api/v1/miners/recipient-coldkey', stored), 200);
    expectStatus(await api.signed(idle, 'POST', '/api/v1/miners/register'), 200);
    expect(await lookup(miner.hotkey)).toMatchObject({ recipient_coldkey: stored, published_in_epoch: null });

    const first = await nextEpoch();
    coordinator.snapshot = snapshotOf([[miner.hotkey, 1]]);
    expect(await epochs.rollover(first)).toMatchObject({ rollover: 'stored', publication: 'published' });
    expect(await lookup(miner.hotkey)).toMatchObject({ recipient_coldkey: stored, published_in_epoch: first });
    // No earnings, no leaf: nothing published for it.
    expect(await lookup(idle.hotkey)).toMatchObject({ recipient_coldkey: null, published_in_epoch: null });
    expect(await latestEpochInStats(idle)).toBe(first);
    expect((await api.send<{ latest_epoch: number | null }>('GET', '/status')).body.latest_epoch).toBe(first);

    // A new recipient is not published until an epoch's leaf carries it; the earlier leaf paid the old one.
    expectStatus(await api.recipient(miner, 'PUT', '/api/v1/miners/recipient-coldkey', later), 200);
    expect(await lookup(miner.hotkey)).toMatchObject({ recipient_coldkey: later, published_in_epoch: null });
    const second = await nextEpoch();
    expect(await epochs.rollover(second)).toMatchObject({ rollover: 'stored', publication: 'published' });
    expect(await lookup(miner.hotkey)).toMatchObject({ recipient_coldkey: later, published_in_epoch: second });
    expect(await latestEpochInStats(miner)).toBe(second);
  }, 60_000);

  it('serves each miner’s signed recipient history, and an epoch whose uri names the SHA-256 of what it serves (DECISIONS §16)', async () => {
    const history = await api.send<{ hotkey: string; records: { recipient_coldkey: string; signed_coldkey: string; timestamp: string; signature: string; kind: string; route: string }[] }>(
      'GET',
      `/api/v1/miners/recipient-coldkey/${encodeAddress(gui.hotkey, 0)}/history`,
    );
    expectStatus(history, 200);
    expect(history.body.hotkey).toBe(gui.hotkey);
    expect(history.body.records.map((r) => [r.kind, r.recipient_coldkey, r.route])).toEqual([
      ['declared', declared, 'POST /coldkey_address/update'],
      ['recipient', stored, 'POST /api/v1/miners/coldkey_address/update'],
      ['declared', later, 'POST /coldkey_address/update'],
    ]);
    await cryptoReady();
    for (const r of history.body.records) expect(verifySignature(recipientUpdateMessage(r.timestamp, r.signed_coldkey), r.signature, gui.hotkey)).toBe(true);
    const unknown = await api.send<ErrorBody>('GET', `/api/v1/miners/recipient-coldkey/${coldkeyNobodyHas}/history`);
    expect([unknown.status, unknown.body.detail.error]).toEqual([404, ErrorCode.HotkeyNotFound]);

    const epoch = ((await h.db.dataSource.query(`SELECT max(epoch) AS epoch FROM epochs`)) as { epoch: number }[])[0].epoch;
    const record = await api.send<{ allocation_uri: string; allocation_sha256: string }>('GET', `/claims/epoch/${epoch}`);
    expect(record.body.allocation_uri).toBe(`${h.config.payout.publicUrl}/claims/epoch/${epoch}/allocation?sha256=${record.body.allocation_sha256}`);
    // The public URL names this pool's port 0 stand-in (POOL_PUBLIC_URL unset): the same path and query on the test's address.
    const bytes = await (await fetch(`${h.url}${new URL(record.body.allocation_uri).pathname}${new URL(record.body.allocation_uri).search}`)).text();
    expect(createHash('sha256').update(bytes, 'utf8').digest('hex')).toBe(record.body.allocation_sha256);
    expect(Date.parse((JSON.parse(bytes) as { recipients_at: string }).recipients_at)).not.toBeNaN();
  });
});
