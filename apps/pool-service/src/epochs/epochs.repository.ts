import { Injectable } from '@nestjs/common';
import { bytesColumn, floatColumn, intColumn, nullableIntColumn, queryOneRow, queryRows, textColumn, timestampColumn } from '@rcs/persistence';
import { EntityManager } from 'typeorm';
import type { SplitMiner } from '@rcs/merkle';
import { EpochEntity } from './entities/epoch.entity';
import { SimulatedClaimEntity } from './entities/simulated-claim.entity';

export interface StoredSnapshot {
  id: string;
  sha256: string;
  body: Uint8Array;
  fetchedAt: Date;
}

/** An epoch as the rollover computed it (publication starts `pending`). */
export type NewEpoch = Pick<
  EpochEntity,
  | 'epoch'
  | 'snapshotId'
  | 'snapshotStale'
  | 'budget'
  | 'carriedIn'
  | 'carriedOver'
  | 'root'
  | 'leafCount'
  | 'totalAmount'
  | 'allocationDocument'
  | 'allocationSha256'
  | 'localCutoffAt'
>;

export interface AllocationRow {
  hotkey: string;
  units: bigint;
  cumulative: bigint;
  recipientColdkey: string | null;
  leafIndex: number | null;
}

/** Epochs, their snapshots and allocations (DECISIONS.md §8); every write takes the caller's manager. */
@Injectable()
export class EpochsRepository {
  /** Serialises rollovers across replicas for the rest of the transaction. */
  async lockRollover(manager: EntityManager): Promise<void> {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtext('pool.epochs.rollover'))`);
  }

  find(manager: EntityManager, epoch: number): Promise<EpochEntity | null> {
    return manager.findOneBy(EpochEntity, { epoch });
  }

  async latest(manager: EntityManager): Promise<EpochEntity | null> {
    return manager.findOne(EpochEntity, { where: {}, order: { epoch: 'DESC' } });
  }

  async latestPublished(manager: EntityManager): Promise<EpochEntity | null> {
    return manager.findOne(EpochEntity, { where: { publication: 'published' }, order: { epoch: 'DESC' } });
  }

  /** The newest published epoch whose leaf for `hotkey` pays `recipient`, or null. */
  async newestPublishedPaying(manager: EntityManager, hotkey: string, recipient: string): Promise<number | null> {
    const [epoch] = await queryRows(
      manager,
      `SELECT a.epoch FROM epoch_allocations a JOIN epochs e ON e.epoch = a.epoch
       WHERE a.hotkey = $1 AND a.recipient_coldkey = $2 AND a.leaf_index IS NOT NULL AND e.publication = 'published'
       ORDER BY a.epoch DESC LIMIT 1`,
      [hotkey, recipient],
      (row) => intColumn(row, 'epoch'),
    );
    return epoch ?? null;
  }

  async list(manager: EntityManager): Promise<number[]> {
    return queryRows(manager, `SELECT epoch FROM epochs ORDER BY epoch DESC`, [], (row) => intColumn(row, 'epoch'));
  }

  /** Stores the snapshot bytes once per SHA-256; a byte-identical refetch only moves `fetched_at`. */
  async upsertSnapshot(manager: EntityManager, sha256: string, body: Uint8Array, generatedAt: string): Promise<string> {
    return queryOneRow(
      manager,
      `INSERT INTO reward_snapshots (sha256, body, generated_at) VALUES ($1, $2, $3)
       ON CONFLICT (sha256) DO UPDATE SET fetched_at = now() RETURNING id`,
      [sha256, Buffer.from(body), generatedAt],
      (row) => textColumn(row, 'id'),
    );
  }

  /** The most recently fetched snapshot, if fetched within `maxAgeSeconds`. */
  async latestSnapshotWithin(manager: EntityManager, maxAgeSeconds: number): Promise<StoredSnapshot | null> {
    const [snapshot] = await queryRows(
      manager,
      `SELECT id, sha256, body, fetched_at FROM reward_snapshots
       WHERE fetched_at >= now() - make_interval(secs => $1) ORDER BY fetched_at DESC, id DESC LIMIT 1`,
      [maxAgeSeconds],
      (row) => ({ id: textColumn(row, 'id'), sha256: textColumn(row, 'sha256'), body: new Uint8Array(bytesColumn(row, 'body')), fetchedAt: timestampColumn(row, 'fetched_at') }),
    );
    return snapshot ?? null;
  }

  async cumulativeOf(manager: EntityManager, epoch: number): Promise<Map<string, bigint>> {
    return new Map(
      await queryRows(manager, `SELECT hotkey, cumulative::text AS cumulative FROM epoch_allocations WHERE epoch = $1`, [epoch], (row) => [textColumn(row, 'hotkey'), BigInt(textColumn(row, 'cumulative'))] as const),
    );
  }

  /**
   * Who the leaves of the given hotkeys pay (canonical), DECISIONS.md §11 Recipients: the recipient stored
   * through the governing routes, else the coldkey declared on the root compatibility route (BitSota's GUI
   * sets only that one; without it a GUI miner would accrue forever). Hotkeys with neither are left out.
   */
  async recipients(manager: EntityManager, hotkeys: string[]): Promise<Map<string, string>> {
    if (hotkeys.length === 0) return new Map();
    const rows = await queryRows(
      manager,
      `SELECT hotkey, coalesce(recipient_coldkey, declared_coldkey) AS recipient FROM miners
       WHERE hotkey = ANY($1::text[]) AND coalesce(recipient_coldkey, declared_coldkey) IS NOT NULL`,
      [hotkeys],
      (row) => [textColumn(row, 'hotkey'), textColumn(row, 'recipient')] as const,
    );
    return new Map(rows);
  }

  /**
   * The `local` competition's scores (DECISIONS.md §11): reputation earned in (from, to], for miners
   * with at least `minActivity` in-consensus evaluations in it; positive sums only.
   */
  async localScores(manager: EntityManager, from: Date | null, to: Date, minActivity: number): Promise<SplitMiner[]> {
    return queryRows(
      manager,
      `SELECT miner_hotkey AS hotkey, sum(amount)::float8 AS score
       FROM reputation_events
       WHERE ($1::timestamptz IS NULL OR created_at > $1) AND created_at <= $2
       GROUP BY miner_hotkey
       HAVING count(*) FILTER (WHERE kind = 'evaluation_in_consensus') >= $3 AND sum(amount) > 0
       ORDER BY miner_hotkey`,
      [from, to, minActivity],
      (row) => ({ hotkey: textColumn(row, 'hotkey'), score: floatColumn(row, 'score') }),
    );
  }

  /** Inserts a rolled-over epoch, its publication pending. */
  async insertEpoch(manager: EntityManager, epoch: NewEpoch): Promise<void> {
    await manager.insert(EpochEntity, { ...epoch, publication: 'pending' });
  }

  async insertAllocations(manager: EntityManager, epoch: number, rows: AllocationRow[]): Promise<void> {
    if (rows.length === 0) return;
    await manager.query(
      `INSERT INTO epoch_allocations (epoch, hotkey, units, cumulative, recipient_coldkey, leaf_index)
       SELECT $1, * FROM unnest($2::text[], $3::numeric[], $4::numeric[], $5::text[], $6::int[])`,
      [
        epoch,
        rows.map((r) => r.hotkey),
        rows.map((r) => r.units.toString()),
        rows.map((r) => r.cumulative.toString()),
        rows.map((r) => r.recipientColdkey),
        rows.map((r) => r.leafIndex),
      ],
    );
  }

  /** The leaves of an epoch in index order. */
  async leaves(manager: EntityManager, epoch: number): Promise<{ hotkey: string; recipientColdkey: string; amount: bigint; index: number }[]> {
    return queryRows(
      manager,
      `SELECT hotkey, recipient_coldkey, cumulative::text AS cumulative, leaf_index FROM epoch_allocations
       WHERE epoch = $1 AND leaf_index IS NOT NULL ORDER BY leaf_index`,
      [epoch],
      (row) => ({ hotkey: textColumn(row, 'hotkey'), recipientColdkey: textColumn(row, 'recipient_coldkey'), amount: BigInt(textColumn(row, 'cumulative')), index: intColumn(row, 'leaf_index') }),
    );
  }

  /** Marks the epoch published once; false when it already was. */
  async markPublished(manager: EntityManager, epoch: number, at: { block: number | null; claimsOpenAt: number | null; txHash: string | null }): Promise<boolean> {
    // A CTE: a bare UPDATE … RETURNING comes back from the driver as [rows, count].
    const rows = await queryRows(
      manager,
      `WITH published AS (
         UPDATE epochs SET publication = 'published', published_at = now(), published_block = $2, claims_open_at_block = $3, tx_hash = $4,
           publish_attempts = publish_attempts + 1, last_publish_attempt_at = now(), last_publish_error = NULL
         WHERE epoch = $1 AND publication = 'pending' RETURNING epoch
       ) SELECT epoch FROM published`,
      [epoch, at.block, at.claimsOpenAt, at.txHash],
      (row) => intColumn(row, 'epoch'),
    );
    return rows.length === 1;
  }

  async recordPublishFailure(manager: EntityManager, epoch: number, error: string): Promise<void> {
    await manager.query(
      `UPDATE epochs SET publish_attempts = publish_attempts + 1, last_publish_attempt_at = now(), last_publish_error = $2
       WHERE epoch = $1 AND publication = 'pending'`,
      [epoch, error.slice(0, 2000)],
    );
  }

  async recordClaim(
    manager: EntityManager,
    claim: { epoch: number; hotkey: string; recipientColdkey: string; amount: bigint; paid: bigint; block: number; reconciled?: boolean },
  ): Promise<void> {
    await manager.query(`INSERT INTO simulated_claims (epoch, hotkey, recipient_coldkey, amount, paid, block, reconciled) VALUES ($1, $2, $3, $4, $5, $6, $7)`, [
      claim.epoch,
      claim.hotkey,
      claim.recipientColdkey,
      claim.amount.toString(),
      claim.paid.toString(),
      claim.block,
      claim.reconciled ?? false,
    ]);
  }

  /**
   * Serialises, until the caller's transaction ends, everything that pays or records a claim of one
   * hotkey: the claim's payment and row, and the reconciliation that compares the two.
   */
  async lockHotkeyClaims(manager: EntityManager, hotkey: string): Promise<void> {
    await manager.query(`SELECT pg_advisory_xact_lock(hashtextextended('simulated_claims:' || $1, 0))`, [hotkey]);
  }

  /**
   * The snapshots named by every epoch that still holds unclaimed value (DECISIONS §16), for the
   * coordinator's pruning. Amounts are cumulative, so once an epoch holds a leaf worth more than its
   * hotkey was paid, every later epoch does too: the set is every epoch from the oldest such one on
   * (the newest alone when none). Paid is the pool's ledger, which never holds more than the contract
   * paid, so this names a superset of what is needed, never less.
   */
  async retainedSnapshots(manager: EntityManager): Promise<{ oldestUnclaimed: number | null; sha256: string[] }> {
    const oldestUnclaimed = await queryOneRow(
      manager,
      `SELECT min(a.epoch) AS epoch
         FROM epoch_allocations a
         LEFT JOIN (SELECT hotkey, sum(paid) AS paid FROM simulated_claims GROUP BY hotkey) p ON p.hotkey = a.hotkey
        WHERE a.cumulative > COALESCE(p.paid, 0)`,
      [],
      (row) => nullableIntColumn(row, 'epoch'),
    );
    const sha256 = await queryRows(
      manager,
      `SELECT DISTINCT s.sha256 FROM epochs e JOIN reward_snapshots s ON s.id = e.snapshot_id
        WHERE e.epoch >= COALESCE($1::integer, (SELECT max(epoch) FROM epochs)) ORDER BY s.sha256`,
      [oldestUnclaimed],
      (row) => textColumn(row, 'sha256'),
    );
    return { oldestUnclaimed, sha256 };
  }

  /** What the ledger holds as paid to each hotkey, over all epochs. */
  async ledgerPaid(manager: EntityManager, hotkeys: string[]): Promise<Map<string, bigint>> {
    return new Map(
      await queryRows(manager, `SELECT hotkey, sum(paid)::text AS paid FROM simulated_claims WHERE hotkey = ANY($1) GROUP BY hotkey`, [hotkeys], (row) => [textColumn(row, 'hotkey'), BigInt(textColumn(row, 'paid'))] as const),
    );
  }

  /** The ledger rows of one hotkey, over all epochs, oldest first. */
  payments(manager: EntityManager, hotkey: string): Promise<SimulatedClaimEntity[]> {
    return manager.find(SimulatedClaimEntity, { where: { hotkey }, order: { id: 'ASC' } });
  }

  ledger(manager: EntityManager, epoch: number): Promise<SimulatedClaimEntity[]> {
    return manager.find(SimulatedClaimEntity, { where: { epoch }, order: { id: 'ASC' } });
  }
}
