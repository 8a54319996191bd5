import { keypairFromUri } from '@rcs/auth';
import { CLAIM_CONTRACT_PORT, type ClaimContractPort } from '@rcs/chain';
import { accountIdToSs58, type ClaimPackage, ss58ToAccountId } from '@rcs/merkle';
import { FakeCoordinator, snapshotOf, until } from '@rcs/testing';
import { EpochsService } from '../src/epochs/epochs.service';
import { bootEpochCheckDone, PoolClient, PoolHarness, type ErrorBody } from './support/harness';
import { OwnStores, servePoolOn, simulatedClaimsEnv, startOwnStores } from './support/own-stores';

/**
 * A simulated claim that the contract paid while the pool's Postgres went away before the ledger
 * row was written (DECISIONS §8 Simulation): the client's retry learns it was paid, and the ledger
 * is reconciled from the contract, the record of payment. The pool runs on a Postgres and a Redis
 * of this file's own.
 */

const BUDGET = 1000n;

type LedgerBody = { epoch: number; claims: { hotkey: string; paid: string; reconciled: boolean; recipient_coldkey: string }[] };

describe('claims under a Postgres crash between the payment and the ledger row', () => {
  const coordinator = new FakeCoordinator();
  let pool: Omit<PoolHarness, 'db' | 'redis'>;
  let client: PoolClient;
  let stores: OwnStores;
  let contract: ClaimContractPort;
  let hotkey: string;
  let coldkey: string;

  beforeAll(async () => {
    [stores] = await Promise.all([startOwnStores(), coordinator.start()]);
    hotkey = (await keypairFromUri('//ReconcileMiner')).address;
    coldkey = (await keypairFromUri('//ReconcileCold')).address;
    await stores.db.query(`INSERT INTO miners (hotkey, recipient_coldkey, recipient_updated_at) VALUES ($1, $2, now())`, [hotkey, coldkey]);
    coordinator.snapshot = snapshotOf([[hotkey, 1]]);
    pool = await servePoolOn(stores, 'reconcile', { COORDINATOR_URL: coordinator.url, ...simulatedClaimsEnv(BUDGET) });
    await bootEpochCheckDone(pool.app);
    client = pool.client;
    contract = pool.app.get<ClaimContractPort>(CLAIM_CONTRACT_PORT);
  }, 120_000);

  afterAll(async () => {
    await pool?.close();
    await coordinator.close();
    await stores?.destroy();
  });

  const ledgerSum = (body: LedgerBody) => body.claims.filter((c) => c.hotkey === hotkey).reduce((sum, c) => sum + BigInt(c.paid), 0n);

  it('answers the retry with the payment and reconciles the ledger to the contract, to the rao', async () => {
    expect((await pool.app.get(EpochsService).rollover(1)).publication).toBe('published');
    const pkg = (await client.send<ClaimPackage>('GET', `/claims/epoch/proof/${hotkey}`)).body;
    expect(pkg.amount).toBe(BUDGET.toString());

    // Another session holds a lock that lets the claim read the ledger but not write its row: the claim pays, then waits on its insert.
    const blocker = stores.db.createQueryRunner();
    await blocker.startTransaction();
    await blocker.query(`LOCK TABLE simulated_claims IN SHARE MODE`);
    const inFlight = client.send<ErrorBody>('POST', '/claims/epoch/claim', pkg);
    await until('the contract paid the claim', () => contract.claimedCumulativeRao(hotkey), (claimed) => claimed === BUDGET);
    await until('the claim waits on its ledger row', () => stores.db.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO simulated_claims%'`), (rows: { n: number }[]) => rows[0].n === 1);
    await stores.pg.crash();
    const failed = await inFlight;
    await blocker.release().catch(() => undefined);
    // The client was told "error" although the contract paid.
    expect(failed.status).toBeGreaterThanOrEqual(500);
    await stores.pg.start();
    await until('the pool reads its database again', () => client.send('GET', '/claims/epochs'), (reply) => reply.status === 200, 60_000);

    const contractPaid = await contract.claimedCumulativeRao(hotkey);
    const [{ paid: ledgerBefore }] = (await stores.db.query(`SELECT coalesce(sum(paid), 0)::text AS paid FROM simulated_claims WHERE hotkey = $1`, [hotkey])) as { paid: string }[];
    process.stderr.write(`claims-reconcile: after recovery the ledger holds ${ledgerBefore} rao for the hotkey, the contract paid ${contractPaid}\n`);

    // The retry tells the client it was paid, and how much.
    const retry = await client.send<ErrorBody>('POST', '/claims/epoch/claim', pkg);
    expect(retry.status).toBe(409);
    expect(retry.body.detail).toMatchObject({ error: 'nothing_to_claim', claimed_cumulative: contractPaid.toString() });
    expect(retry.body.detail.payments).toEqual([expect.objectContaining({ epoch: 1, recipient_coldkey: coldkey, paid: BUDGET.toString(), reconciled: true })]);

    // The ledger agrees with the contract, to the rao, and says which row was reconciled.
    const ledger = (await client.send<LedgerBody>('GET', '/claims/ledger')).body;
    expect(ledgerSum(ledger)).toBe(contractPaid);
    expect(ledger.claims).toEqual([expect.objectContaining({ hotkey, recipient_coldkey: coldkey, paid: BUDGET.toString(), reconciled: true })]);
    process.stderr.write(`claims-reconcile: /claims/ledger then serves ${ledgerSum(ledger)} rao: ${contractPaid - ledgerSum(ledger)} rao from the contract's figure\n`);
  }, 120_000);

  it('reconciles on ledger reads a payment the pool never saw, once however many reads and claims race', async () => {
    expect((await pool.app.get(EpochsService).rollover(2)).publication).toBe('published');
    const pkg = (await client.send<ClaimPackage>('GET', `/claims/epoch/proof/${hotkey}`)).body;
    expect(pkg).toMatchObject({ epoch: 2, amount: (2n * BUDGET).toString() });
    // The miner's own client claims on the contract: the pool's ledger has no row of it.
    await contract.claimSingle(
      { epoch: 2, index: pkg.index, hotkey, recipientColdkey: pkg.recipient_coldkey, amount: BigInt(pkg.amount), proof: pkg.proof as `0x${string}`[] },
      true,
      await keypairFromUri('//ReconcileMiner'),
    );
    const contractPaid = await contract.claimedCumulativeRao(hotkey);
    expect(contractPaid).toBe(2n * BUDGET);

    const replies = await Promise.all([
      ...Array.from({ length: 5 }, () => client.send<LedgerBody>('GET', '/claims/ledger')),
      client.send<ErrorBody>('POST', '/claims/epoch/claim', pkg),
      ...Array.from({ length: 3 }, () => client.send<LedgerBody>('GET', '/claims/ledger/1')),
    ]);
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 409, 200, 200, 200]);
    const ledger = (await client.send<LedgerBody>('GET', '/claims/ledger/2')).body;
    expect(ledger.claims).toEqual([expect.objectContaining({ hotkey, recipient_coldkey: coldkey, paid: BUDGET.toString(), reconciled: true })]);
    const [{ paid }] = (await stores.db.query(`SELECT sum(paid)::text AS paid FROM simulated_claims WHERE hotkey = $1`, [hotkey])) as { paid: string }[];
    expect(BigInt(paid)).toBe(contractPaid);

    // What the contract paid, for anyone (the web UI's miner page) and by any spelling: a claim made outside the pool included.
    const polkadot = accountIdToSs58(ss58ToAccountId(hotkey), 0);
    const claimed = await client.send<{ hotkey: string; claimed_cumulative: string }>('GET', `/claims/claimed/${polkadot}`);
    expect([claimed.status, claimed.body]).toEqual([200, { hotkey, claimed_cumulative: contractPaid.toString() }]);
    const never = await client.send<{ claimed_cumulative: string }>('GET', `/claims/claimed/${(await keypairFromUri('//NeverClaimed')).address}`);
    expect([never.status, never.body.claimed_cumulative]).toEqual([200, '0']);
    const malformed = await client.send<ErrorBody>('GET', '/claims/claimed/not-an-address');
    expect([malformed.status, malformed.body.detail?.error]).toEqual([404, 'hotkey_not_found']);
  }, 60_000);
});
