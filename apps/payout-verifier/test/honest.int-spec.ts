import { until } from '@rcs/testing';
import { recordSha256 } from '../src/verdicts/record-verdicts.repository';
import { recordKey } from '../src/verify/recipient-rule';
import { createStores, startVerifier, type VerifierHarness, type VerifierStores } from './support/harness';

/** No false alarm (issue 36): honest epochs are verified, a restart never judges again, an unreachable input is `unverified`. */
describe('payout verifier: honest epochs (DECISIONS §16)', () => {
  let stores: VerifierStores;
  let h: VerifierHarness | null = null;

  beforeEach(async () => {
    stores = await createStores();
  });

  afterEach(async () => {
    await h?.close();
    h = null;
    await stores.release();
  });

  const status = async () => (await (await fetch(`${h?.url}/status`)).json()) as { challenges: number; epochs: Record<string, number> };

  it('a cold start over 50 honest epochs verifies all 50 and raises 0 challenges', async () => {
    for (let epoch = 1; epoch <= 50; epoch += 1) {
      // A miner changes its recipient midway; the next epochs pay the new one, as signed.
      if (epoch === 20) stores.world.signRecipient(stores.world.miners[0], stores.world.coldkeys[6], 'recipient', stores.world.between());
      await stores.world.publish(epoch);
    }
    h = await startVerifier(stores);
    const pass = await h.verifier.pass();
    expect(pass.judged.map((j) => j.result)).toEqual(Array(50).fill('verified'));
    expect([pass.challenged, pass.error]).toEqual([0, null]);
    expect(await status()).toMatchObject({ challenges: 0, epochs: { verified: 50, mismatch: 0, unverified: 0 } });
    const metrics = await (await fetch(`${h.url}/metrics`)).text();
    expect(metrics).toContain('payout_epochs_verified_total{result="verified"} 50');
    expect(metrics).toContain('payout_challenges_total 0');
  });

  it("keeps each recipient record's verdict in its database, and uses a stored verdict instead of checking the signature again", async () => {
    for (let epoch = 1; epoch <= 2; epoch += 1) await stores.world.publish(epoch);
    h = await startVerifier(stores);
    expect((await h.verifier.pass()).judged.map((j) => j.result)).toEqual(['verified', 'verified']);
    const records = [...stores.world.histories].flatMap(([hotkey, list]) => list.map((record) => recordSha256(recordKey(hotkey, record))));
    const stored = (await stores.db.dataSource.query(`SELECT record_sha256, valid FROM recipient_record_verdicts`)) as { record_sha256: string; valid: boolean }[];
    expect(stored.map((row) => row.record_sha256).sort()).toEqual(records.sort());
    expect(stored.every((row) => row.valid)).toBe(true);

    // A new record the miner really signed, whose verdict an earlier run stored as `false`: the pass takes
    // the stored verdict (it does not check that signature again), so the leaf paying it is a mismatch.
    const miner = stores.world.miners[0];
    stores.world.signRecipient(miner, stores.world.coldkeys[6], 'recipient', stores.world.between());
    const record = stores.world.histories.get(miner.address)?.at(-1);
    if (record === undefined) throw new TypeError('no record');
    await stores.db.dataSource.query(`INSERT INTO recipient_record_verdicts (record_sha256, valid) VALUES ($1, false)`, [recordSha256(recordKey(miner.address, record))]);
    await stores.world.publish(3);
    expect((await h.verifier.pass()).judged).toEqual([{ epoch: 3, result: 'mismatch', check: 'recipients' }]);
  });

  it('VERIFIER_BOOTSTRAP=latest starts at the newest epoch, adding to the published one before it', async () => {
    for (let epoch = 1; epoch <= 4; epoch += 1) await stores.world.publish(epoch);
    h = await startVerifier(stores, { VERIFIER_BOOTSTRAP: 'latest' });
    expect((await h.verifier.pass()).judged).toEqual([{ epoch: 4, result: 'verified', check: null }]);
    await stores.world.publish(5);
    expect((await h.verifier.pass()).judged).toEqual([{ epoch: 5, result: 'verified', check: null }]);
  });

  it('a restart mid-run never challenges an epoch it already judged', async () => {
    for (let epoch = 1; epoch <= 5; epoch += 1) await stores.world.publish(epoch);
    await stores.world.publish(6, { document: (doc) => void (doc.entries[0].cumulative = '1') });
    h = await startVerifier(stores);
    expect((await h.verifier.pass()).challenged).toBe(1);
    // The publisher's arbiter dismisses the challenge: a second challenge_epoch would be accepted now.
    await stores.contract.resolveChallenge(6, false, stores.world.miners[0].address, stores.world.miners[0]);
    await h.close();

    h = await startVerifier(stores);
    await stores.world.publish(7);
    const pass = await h.verifier.pass();
    expect(pass.judged).toEqual([{ epoch: 7, result: 'verified', check: null }]);
    expect(pass.challenged).toBe(0);
    expect(await stores.contract.challenge(6)).toMatchObject({ status: 'dismissed' });
    expect((await stores.contract.epochInfo(6))?.disputed).toBe(false);
    expect(await status()).toMatchObject({ challenges: 1, epochs: { verified: 6, mismatch: 1 } });
  });

  it('an unreachable coordinator makes the epoch unverified, retried each pass, never a mismatch', async () => {
    await stores.world.publish(1);
    await stores.world.publish(2);
    stores.world.coordinatorDown = true;
    h = await startVerifier(stores);
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const pass = await h.verifier.pass();
      expect(pass.judged).toEqual([{ epoch: 1, result: 'unverified', check: 'coordinator' }]);
      expect(pass.challenged).toBe(0);
    }
    expect(await status()).toMatchObject({ challenges: 0, epochs: { verified: 0, mismatch: 0, unverified: 1 } });
    expect(await (await fetch(`${h.url}/metrics`)).text()).toContain('payout_epochs_verified_total{result="unverified"} 2');

    stores.world.coordinatorDown = false;
    const pass = await h.verifier.pass();
    expect(pass.judged.map((j) => [j.epoch, j.result])).toEqual([
      [1, 'verified'],
      [2, 'verified'],
    ]);
    expect(await stores.contract.challenge(1)).toBeNull();
  });

  it('a pass cut short by shutdown records nothing, and the app closes without waiting for the read', async () => {
    await stores.world.publish(1);
    stores.world.heldSnapshotReads = [];
    // A read that would wait its whole minute: the close below must not.
    const started = await startVerifier(stores, { VERIFIER_HTTP_TIMEOUT_SECONDS: '60' });
    const pass = started.verifier.pass();
    await until('the snapshot read is held', async () => stores.world.heldSnapshotReads?.length ?? 0, (held) => held > 0);
    // Closing ends the read (what `npm start`'s Ctrl-C does while a service beside it is stopping too).
    await started.close();
    expect(await pass).toEqual({ judged: [], challenged: 0, error: 'the verifier is stopping' });
    // Nothing recorded: the next start judges epoch 1 as if the pass had never begun.
    expect(await stores.db.dataSource.query('SELECT epoch, result FROM epoch_verdicts')).toEqual([]);
    stores.world.heldSnapshotReads.forEach((res) => res.destroy());
    stores.world.heldSnapshotReads = null;
    h = await startVerifier(stores);
    expect((await h.verifier.pass()).judged).toEqual([{ epoch: 1, result: 'verified', check: null }]);
  });

  it('answers /healthz and /readyz', async () => {
    h = await startVerifier(stores);
    expect((await fetch(`${h.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${h.url}/readyz`);
    expect([ready.status, ((await ready.json()) as { status: string }).status]).toEqual([200, 'ready']);
  });
});
