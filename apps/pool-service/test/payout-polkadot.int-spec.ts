import { keypairFromUri } from '@rcs/auth';
import { CLAIM_CONTRACT_PORT, ClaimContractError, type ClaimContractPort, type ClaimData, type HexHash } from '@rcs/chain';
import { LocalClaimContract, LocalRpcServer, MERKLEPOOL_5A988BF_METADATA_PATH, MERKLEPOOL_METADATA_PATH } from '@rcs/chain/testing';
import type { ClaimPackage } from '@rcs/merkle';
import { createTestRedis, FakeCoordinator, snapshotOf, type TestRedis } from '@rcs/testing';
import { encodeAddress } from '@polkadot/util-crypto';
import { loadPoolServiceConfig } from '../src/config/config';
import { EpochPublisher } from '../src/epochs/epoch-publisher.service';
import { EpochsService } from '../src/epochs/epochs.service';
import { bootEpochCheckDone, createPoolApp, PoolHarness, poolStoresEnv, servePool, startPool } from './support/harness';
import { testRolloverEnv } from './support/own-stores';

const CONTRACT = encodeAddress(new Uint8Array(32).fill(0xc0), 42);
const EVIDENCE = `0x${'ab'.repeat(32)}` as HexHash;

interface HealthBody {
  status: string;
  onchain_runtime: { contract_status: { active_veto_count: number; is_veto_active: boolean; claim_ready: boolean; read_error: string | null } };
  payout: { publication: { pending_epoch: number | null; last_error: string | null } };
}

/**
 * The pool with `CHAIN=polkadot` against a local JSON-RPC node that deploys BitSota's merklepool
 * (its real metadata, a642a7de) and answers in its types: `Result<Epoch, ReadWriteErrorCode>`,
 * `Err(ReadFailed | WriteFailed)`, traps, and its events.
 */
describe('pool payout through the polkadot adapter on the real merklepool metadata (real Postgres, Redis, HTTP, local node)', () => {
  const coordinator = new FakeCoordinator();
  let node: LocalRpcServer;
  let contractRedis: TestRedis;
  let deployed: LocalClaimContract;
  let pool: PoolHarness;
  let contract: ClaimContractPort;
  let epochs: EpochsService;
  let hotkey: string;
  let coldkey: string;

  const chainEnv = (metadataPath: string): NodeJS.ProcessEnv => ({
    CHAIN: 'polkadot',
    CHAIN_WS_URL: node.url,
    CLAIM_CONTRACT_ADDRESS: CONTRACT,
    CLAIM_CONTRACT_METADATA_PATH: metadataPath,
  });

  beforeAll(async () => {
    await coordinator.start();
    node = await LocalRpcServer.start({ bestBlock: 100 });
    contractRedis = await createTestRedis();
    deployed = new LocalClaimContract(node, { address: CONTRACT, redis: contractRedis.redis, keyPrefix: contractRedis.prefix });
    hotkey = (await keypairFromUri('//PolkadotPayoutMiner')).address;
    coldkey = (await keypairFromUri('//PolkadotPayoutCold')).address;
    pool = await startPool({
      ...chainEnv(MERKLEPOOL_METADATA_PATH),
      COORDINATOR_URL: coordinator.url,
      ...testRolloverEnv(1000),
    });
    await bootEpochCheckDone(pool.app);
    contract = pool.app.get<ClaimContractPort>(CLAIM_CONTRACT_PORT);
    epochs = pool.app.get(EpochsService);
    await pool.db.dataSource.query(`INSERT INTO miners (hotkey, recipient_coldkey, recipient_updated_at) VALUES ($1, $2, now())`, [hotkey, coldkey]);
  }, 60_000);

  // CLAIM_SIMULATION is dev-only: a miner's claim is its own client's call, made here through the pool's contract port.
  const claimDataOf = (pkg: ClaimPackage): ClaimData => ({
    epoch: pkg.epoch,
    index: pkg.index,
    hotkey: pkg.hotkey,
    recipientColdkey: pkg.recipient_coldkey,
    amount: BigInt(pkg.amount),
    proof: pkg.proof as HexHash[],
  });
  const refusalOf = async (pkg: ClaimPackage): Promise<{ code: string; refused: ClaimContractError['refused'] } | 'paid'> => {
    try {
      await contract.claimSingle(claimDataOf(pkg), true, await keypairFromUri('//PolkadotPayoutClaimer'));
      return 'paid';
    } catch (error) {
      if (error instanceof ClaimContractError) return { code: error.code, refused: error.refused };
      throw error;
    }
  };

  const lastPublishError = async (epoch: number): Promise<string | null> => {
    const rows = (await pool.db.dataSource.query(`SELECT last_publish_error FROM epochs WHERE epoch = $1`, [epoch])) as { last_publish_error: string | null }[];
    return rows[0]?.last_publish_error ?? null;
  };

  afterAll(async () => {
    await pool?.close();
    await node?.close();
    await contractRedis?.cleanup();
    await coordinator.close();
  });

  it('records a landed publication as published (claims_open_at read back with get_epoch_info), and a re-run finds it already published', async () => {
    coordinator.snapshot = snapshotOf([[hotkey, 1]]);
    const rollover = await epochs.rollover(10);
    // With the error the pool recorded, so that a failed publication says why.
    expect({ rollover, last_publish_error: await lastPublishError(10) }).toEqual({
      rollover: { epoch: 10, rollover: 'stored', publication: 'published' },
      last_publish_error: null,
    });
    expect(deployed.included.map((call) => [call.message, call.reverted])).toEqual([['publish_epoch', false]]);
    const meta = await pool.client.send<Record<string, unknown>>('GET', '/claims/epoch/10');
    expect(meta.body).toMatchObject({ epoch: 10, status: 'published', published_block: 101, claims_open_at_block: 101 });
    expect((await pool.client.send<HealthBody>('GET', '/health')).body).toMatchObject({
      status: 'healthy',
      onchain_runtime: { enabled: true, contract: CONTRACT, contract_status: { active_veto_count: 0, is_veto_active: false, claim_ready: true, read_error: null } },
      payout: { publication: { pending_epoch: null, last_error: null } },
    });

    // A crash after the chain took the root, before the pool recorded it: the contract refuses the
    // second publish_epoch (Err(WriteFailed)), and get_epoch_info shows the same root.
    await pool.db.dataSource.query(`UPDATE epochs SET publication = 'pending', published_at = NULL WHERE epoch = 10`);
    expect(await epochs.rollover(10)).toEqual({ epoch: 10, rollover: 'existed', publication: 'already_published' });
    expect(deployed.included).toHaveLength(1);
    expect(((await pool.db.dataSource.query(`SELECT publication, last_publish_error FROM epochs WHERE epoch = 10`)) as unknown[])[0]).toEqual({
      publication: 'published',
      last_publish_error: null,
    });
  }, 60_000);

  it('shows a dispute in /health and on the epoch route; the contract refuses claims (claims_locked) until it is resolved', async () => {
    const pkg = (await pool.client.send<ClaimPackage>('GET', `/claims/epoch/proof/${hotkey}`)).body;
    await contract.challengeEpoch(10, EVIDENCE, await keypairFromUri('//Bob'));

    const health = (await pool.client.send<HealthBody>('GET', '/health')).body;
    expect(health.onchain_runtime.contract_status).toMatchObject({ active_veto_count: 1, is_veto_active: true, claim_ready: false });
    expect((await pool.client.send<{ status: string }>('GET', '/claims/epoch/10')).body.status).toBe('disputed');
    expect(await refusalOf(pkg)).toMatchObject({ code: 'claims_locked' });

    await contract.resolveChallenge(10, false, (await keypairFromUri('//Bob')).address, await keypairFromUri('//Alice'));
    expect((await pool.client.send<HealthBody>('GET', '/health')).body.onchain_runtime.contract_status).toMatchObject({ is_veto_active: false, claim_ready: true });
    expect((await pool.client.send<{ status: string }>('GET', '/claims/epoch/10')).body.status).toBe('published');
  }, 60_000);

  it('reports the contract’s own refusal when its state does not explain it, and pays amount − claimed once (Claimed event)', async () => {
    const pkg = (await pool.client.send<ClaimPackage>('GET', `/claims/epoch/proof/${hotkey}`)).body;
    try {
      for (const [forced, refusal] of [
        ['WriteFailed', 'write_failed'],
        ['ReadFailed', 'read_failed'],
        ['ContractTrapped', 'contract_trapped'],
      ] as const) {
        deployed.forced.set('claim_single', forced);
        expect(await refusalOf(pkg)).toEqual({ code: refusal, refused: { message: 'claim_single', refusal } });
      }
    } finally {
      deployed.forced.clear();
    }

    const receipt = await contract.claimSingle(claimDataOf(pkg), true, await keypairFromUri('//PolkadotPayoutClaimer'));
    expect(receipt.paidRao).toBe(BigInt(pkg.amount));
    expect(await contract.claimedCumulativeRao(hotkey)).toBe(BigInt(pkg.amount));
    // Refused again (Err(WriteFailed)); get_claimed_cumulative_rao says why.
    expect(await refusalOf(pkg)).toMatchObject({ code: 'nothing_to_claim' });
    // The simulation routes are not served: CLAIM_SIMULATION is refused with CHAIN=polkadot.
    expect((await pool.client.send('POST', '/claims/epoch/claim', pkg)).status).toBe(404);
  }, 60_000);

  it('records a publication refused because the contract holds another root as a failure, shown by /health', async () => {
    await contract.publishEpoch({ epoch: 11, root: `0x${'22'.repeat(32)}`, numOfLeaves: 1, totalRao: 1n, uri: 'x' }, await keypairFromUri('//Alice'));
    expect(await epochs.rollover(11)).toMatchObject({ rollover: 'stored', publication: 'failed' });
    const health = (await pool.client.send<HealthBody>('GET', '/health')).body;
    expect(health.status).toBe('degraded');
    expect(health.payout.publication).toMatchObject({ pending_epoch: 11, last_error: expect.stringContaining('epoch_exists') });
  }, 60_000);

  it('sends one transaction when a stored epoch is published by several callers at once, in one process and in another replica', async () => {
    // Stored but not published (the contract refused the first try), as the epoch check then finds it.
    coordinator.snapshot = snapshotOf([[hotkey, 1]]);
    deployed.forced.set('publish_epoch', 'WriteFailed');
    try {
      expect(await epochs.rollover(12)).toMatchObject({ rollover: 'stored', publication: 'failed' });
    } finally {
      deployed.forced.clear();
    }
    const replica = await servePool({ ...poolStoresEnv(pool.db, pool.redis), ...chainEnv(MERKLEPOOL_METADATA_PATH), COORDINATOR_URL: coordinator.url, ...testRolloverEnv(1000) });
    try {
      const sent = deployed.included.length;
      const here = pool.app.get(EpochPublisher);
      const outcomes = await Promise.all([here.publish(12), here.publish(12), replica.app.get(EpochPublisher).publish(12)]);
      expect(outcomes.sort()).toEqual(['already_published', 'already_published', 'published']);
      expect(deployed.included.slice(sent).map((call) => [call.message, call.reverted])).toEqual([['publish_epoch', false]]);
      expect(await lastPublishError(12)).toBeNull();
    } finally {
      await replica.close();
    }
  }, 60_000);

  it("refuses to start on BitSota's older metadata (5a988bf: ClaimData without the hotkey)", async () => {
    const config = loadPoolServiceConfig({
      ...chainEnv(MERKLEPOOL_5A988BF_METADATA_PATH),
      NETUID: '1',
      ...poolStoresEnv(pool.db, pool.redis),
      LOG_LEVEL: 'silent',
      POOL_EPOCH_CHECK_SECONDS: '3600',
    });
    const app = await createPoolApp(config);
    try {
      await expect(app.init()).rejects.toThrow(/merklepool-5a988bf\.json is not the contract this pool speaks .*type ClaimData is ClaimData \{epoch: u64, index: u32, recipient_coldkey/);
    } finally {
      await app.close();
    }
  }, 60_000);
});
