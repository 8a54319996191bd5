import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { canonicalSs58, keypairFromUri } from '@rcs/auth';
import { ChainUnavailableError, CLAIM_CONTRACT_PORT, ClaimContractError, ClaimContractPort, type ClaimReceipt, type ContractCaller, type HexHash } from '@rcs/chain';
import {
  ApiError,
  ApiValidationError,
  ClaimedCumulativeDto,
  ClaimEpochDto,
  ClaimEpochListDto,
  RetainedSnapshotsDto,
  ClaimLedgerDto,
  ClaimPackageDto,
  ErrorCode,
  SimulatedClaimDto,
  SimulatedClaimRequestDto,
} from '@rcs/contracts';
import { buildClaimEpoch, verifyClaimPackage, type ClaimEpochTree } from '@rcs/merkle';
import { DataSource, type EntityManager } from 'typeorm';
import { PoolServiceConfig } from '../config/config';
import { POOL_CONFIG } from '../config/config.module';
import { allocationUri, EpochsRepository, publicationEnabled } from '../epochs/epochs.module';
import { EpochEntity } from '../epochs/entities/epoch.entity';
import { PoolEvents } from '../events/pool-events';

interface CachedTree {
  tree: ClaimEpochTree;
  indexOf: Map<string, number>;
}

// Epochs never change once stored: their trees are kept, the latest few.
const TREE_CACHE_SIZE = 4;

/** The claim routes of spec 001 (DECISIONS.md §8): epochs, packages, receipts and the simulation. */
@Injectable()
export class PayoutClaimsService {
  private readonly logger = new Logger(PayoutClaimsService.name);
  private readonly trees = new Map<number, Promise<CachedTree>>();
  private simulator: Promise<ContractCaller> | null = null;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly epochs: EpochsRepository,
    @Inject(CLAIM_CONTRACT_PORT) private readonly contract: ClaimContractPort,
    @Inject(POOL_CONFIG) private readonly config: PoolServiceConfig,
    private readonly events: PoolEvents,
  ) {}

  get simulation(): boolean {
    return this.config.payout.claimSimulation;
  }

  /** The claimable epoch: the latest published one (the latest stored when publication is off). */
  async defaultEpoch(): Promise<EpochEntity | null> {
    const manager = this.dataSource.manager;
    return publicationEnabled(this.config) ? this.epochs.latestPublished(manager) : this.epochs.latest(manager);
  }

  async list(): Promise<ClaimEpochListDto> {
    const [epochs, defaultEpoch] = await Promise.all([this.epochs.list(this.dataSource.manager), this.defaultEpoch()]);
    return { epochs, default_epoch: defaultEpoch?.epoch ?? null };
  }

  /** `GET /claims/retained-snapshots`: the snapshots the coordinator must not prune (DECISIONS §16). */
  async retainedSnapshots(): Promise<RetainedSnapshotsDto> {
    const retained = await this.epochs.retainedSnapshots(this.dataSource.manager);
    return { oldest_unclaimed_epoch: retained.oldestUnclaimed, snapshot_sha256: retained.sha256 };
  }

  private async epochRow(epoch: string | null): Promise<EpochEntity> {
    if (epoch === null) {
      const row = await this.defaultEpoch();
      if (row === null) throw ApiError.notFound(ErrorCode.EpochNotFound, 'No epoch has been published yet.');
      return row;
    }
    const id = /^[0-9]{1,9}$/.test(epoch) ? Number(epoch) : null;
    const row = id === null ? null : await this.epochs.find(this.dataSource.manager, id);
    if (row === null) throw ApiError.notFound(ErrorCode.EpochNotFound, `No epoch ${epoch}.`, { epoch });
    return row;
  }

  async metadata(epoch: string | null): Promise<ClaimEpochDto> {
    const row = await this.epochRow(epoch);
    const latestPublished = await this.epochs.latestPublished(this.dataSource.manager);
    let status: ClaimEpochDto['status'] = row.publication === 'published' ? 'published' : 'pending';
    if (status === 'published' && latestPublished !== null && latestPublished.epoch > row.epoch) status = 'superseded';
    if (status === 'published') {
      const info = await this.contract.epochInfo(row.epoch).catch(() => null);
      if (info?.disputed) status = 'disputed';
    }
    const document = JSON.parse(row.allocationDocument) as { snapshot_sha256: string | null };
    return {
      epoch: row.epoch,
      root: row.root,
      leaf_count: row.leafCount,
      total_amount: row.totalAmount,
      status,
      published_block: row.publishedBlock,
      claims_open_at_block: row.claimsOpenAtBlock,
      published_at: row.publishedAt?.toISOString() ?? null,
      snapshot_sha256: document.snapshot_sha256,
      snapshot_stale: row.snapshotStale,
      allocation_sha256: row.allocationSha256,
      allocation_uri: allocationUri(this.config, row.epoch, row.allocationSha256),
      hash: 'blake2b-256',
      tree: 'rfc9162',
    };
  }

  async allocation(epoch: string): Promise<string> {
    return (await this.epochRow(epoch)).allocationDocument;
  }

  private tree(epoch: number): Promise<CachedTree> {
    let cached = this.trees.get(epoch);
    if (!cached) {
      cached = this.epochs.leaves(this.dataSource.manager, epoch).then((leaves) => {
        const tree = buildClaimEpoch(epoch, leaves);
        return { tree, indexOf: new Map(tree.entries.map((entry) => [entry.hotkey, entry.index])) };
      });
      cached.catch(() => this.trees.delete(epoch));
      this.trees.set(epoch, cached);
      while (this.trees.size > TREE_CACHE_SIZE) this.trees.delete(Math.min(...this.trees.keys()));
    }
    return cached;
  }

  /**
   * The epoch number a proof read names. A named epoch whose tree is cached needs no database read
   * (stored epochs never change); the default one is read each time, so a new publication is seen at once.
   */
  private async proofEpoch(epoch: string | null): Promise<number> {
    if (epoch === null) return (await this.epochRow(null)).epoch;
    const id = /^[0-9]{1,9}$/.test(epoch) ? Number(epoch) : null;
    if (id !== null && this.trees.has(id)) return id;
    return (await this.epochRow(epoch)).epoch;
  }

  async package(epoch: string | null, hotkey: string): Promise<ClaimPackageDto> {
    const row = { epoch: await this.proofEpoch(epoch) };
    const canonical = canonicalSs58(hotkey);
    const { tree, indexOf } = await this.tree(row.epoch);
    const index = canonical === null ? undefined : indexOf.get(canonical);
    if (index === undefined) {
      throw ApiError.notFound(ErrorCode.HotkeyNotInEpoch, `Hotkey ${hotkey} has no leaf in epoch ${row.epoch} (no earnings yet, or neither a stored recipient nor a declared coldkey at rollover).`, {
        epoch: row.epoch,
        hotkey,
      });
    }
    return tree.packageAt(index);
  }

  /** The contract's `claimed_cumulative` of a hotkey (any SS58 spelling): what a claim has paid it so far, wherever it was claimed from. */
  async claimedCumulative(hotkey: string): Promise<ClaimedCumulativeDto> {
    const canonical = canonicalSs58(hotkey);
    if (canonical === null) throw ApiError.notFound(ErrorCode.HotkeyNotFound, `${hotkey} is not an SS58 address.`, { hotkey });
    try {
      return { hotkey: canonical, claimed_cumulative: (await this.contract.claimedCumulativeRao(canonical)).toString() };
    } catch (error) {
      if (error instanceof ChainUnavailableError) {
        throw ApiError.unavailable(ErrorCode.ChainUnavailable, 'The claim contract cannot be read; retry later.');
      }
      throw error;
    }
  }

  private simulatorPair(): Promise<ContractCaller> {
    this.simulator ??= keypairFromUri(this.config.payout.publisherUri ?? '//PoolClaimSimulation');
    return this.simulator;
  }

  /** Verifies the package against the stored root, then claims through the contract (which pays `amount − claimed` once). */
  async claim(epoch: string | null, body: SimulatedClaimRequestDto): Promise<SimulatedClaimDto> {
    const row = await this.epochRow(epoch ?? (body.epoch === undefined ? null : String(body.epoch)));
    if (body.epoch !== undefined && body.epoch !== row.epoch) {
      throw new ApiValidationError([{ type: 'epoch_mismatch', loc: ['body', 'epoch'], msg: `the body names epoch ${body.epoch}, the path ${row.epoch}`, input: body.epoch }]);
    }
    const amount = body.amount ?? body.amount_units;
    if (amount === undefined) throw new ApiValidationError([{ type: 'missing', loc: ['body', 'amount'], msg: 'amount or amount_units is required' }]);
    const hotkey = canonicalSs58(body.hotkey);
    const recipient = canonicalSs58(body.recipient_coldkey);
    if (hotkey === null || recipient === null) {
      throw new ApiValidationError([{ type: 'invalid_ss58', loc: ['body', hotkey === null ? 'hotkey' : 'recipient_coldkey'], msg: 'must be an SS58 address' }]);
    }
    const verdict = verifyClaimPackage(
      {
        epoch: row.epoch,
        index: body.index,
        hotkey,
        recipient_coldkey: recipient,
        amount,
        amount_units: body.amount_units,
        proof: body.proof,
        root: row.root,
        leaf_count: row.leafCount,
        leaf_hash: body.leaf_hash,
      },
      { root: row.root, leafCount: row.leafCount },
    );
    if (!verdict.ok) throw new ApiValidationError([{ type: ErrorCode.InvalidProof, loc: ['body'], msg: `the package does not verify against epoch ${row.epoch}: ${verdict.reason}` }]);
    const claim = { epoch: row.epoch, index: body.index, hotkey, recipientColdkey: recipient, amount: BigInt(amount), proof: body.proof as HexHash[] };
    let outcome: { paid: bigint; block: number } | 'nothing_to_claim';
    try {
      // The payment and its ledger row under the hotkey's lock, after the ledger has caught up with the
      // contract: a row lost after an earlier payment is written now, never twice (docs/pool-and-payouts.md, "Epochs and claims").
      outcome = await this.dataSource.transaction(async (manager) => {
        await this.epochs.lockHotkeyClaims(manager, hotkey);
        await this.reconcileLocked(manager, hotkey, row.epoch, recipient);
        let receipt: ClaimReceipt;
        try {
          receipt = await this.contract.claimSingle(claim, true, await this.simulatorPair());
        } catch (error) {
          if (error instanceof ClaimContractError && error.code === 'nothing_to_claim') return 'nothing_to_claim';
          throw error;
        }
        const paid = receipt.paidRao ?? 0n;
        await this.epochs.recordClaim(manager, { epoch: row.epoch, hotkey, recipientColdkey: recipient, amount: claim.amount, paid, block: receipt.block });
        return { paid, block: receipt.block };
      });
    } catch (error) {
      throw this.claimError(error, row.epoch);
    }
    if (outcome === 'nothing_to_claim') throw await this.nothingToClaim(hotkey, row.epoch);
    this.events.emit('claim.simulated', { epoch: row.epoch, hotkey, paidRao: outcome.paid });
    const claimed = await this.contract.claimedCumulativeRao(hotkey);
    return { status: 'claimed', epoch: row.epoch, hotkey, recipient_coldkey: recipient, paid: outcome.paid.toString(), claimed_cumulative: claimed.toString(), block: outcome.block };
  }

  /**
   * 409 `nothing_to_claim` with what the hotkey was paid: the contract's `claimed_cumulative` and the
   * ledger's rows for it, so that a client told "error" by a claim the contract did pay learns of it.
   */
  private async nothingToClaim(hotkey: string, epoch: number): Promise<ApiError> {
    const [claimed, payments] = await Promise.all([this.contract.claimedCumulativeRao(hotkey), this.epochs.payments(this.dataSource.manager, hotkey)]);
    return ApiError.conflict(ErrorCode.NothingToClaim, 'Everything this leaf pays has already been claimed; `payments` lists what was paid to this hotkey.', {
      epoch,
      hotkey,
      claimed_cumulative: claimed.toString(),
      payments: payments.map((p) => ({ epoch: p.epoch, recipient_coldkey: p.recipientColdkey, amount: p.amount, paid: p.paid, block: p.block, reconciled: p.reconciled, claimed_at: p.createdAt.toISOString() })),
    });
  }

  /**
   * Writes, as one reconciled row of `epoch` paid to `recipient`, what the contract has paid `hotkey`
   * beyond the ledger's sum for it. The caller holds the hotkey's lock (`lockHotkeyClaims`) in `manager`'s transaction.
   */
  private async reconcileLocked(manager: EntityManager, hotkey: string, epoch: number, recipient: string): Promise<void> {
    const [recorded, claimed] = await Promise.all([this.epochs.ledgerPaid(manager, [hotkey]), this.contract.claimedCumulativeRao(hotkey)]);
    const missing = claimed - (recorded.get(hotkey) ?? 0n);
    if (missing <= 0n) return;
    const block = (await this.contract.claimState()).currentBlock;
    await this.epochs.recordClaim(manager, { epoch, hotkey, recipientColdkey: recipient, amount: claimed, paid: missing, block, reconciled: true });
    this.logger.warn(`Ledger reconciled from the claim contract: ${missing} rao paid to ${hotkey} had no row (contract: ${claimed} claimed in all); written to epoch ${epoch}`);
  }

  /**
   * Brings the ledger up to the contract for every hotkey with a leaf in the claimable epoch (the
   * only one the contract pays): a cheap comparison first, then the locked check and write for the few behind.
   */
  private async reconcileEpoch(epoch: number): Promise<void> {
    const { tree } = await this.tree(epoch);
    const hotkeys = tree.entries.map((entry) => entry.hotkey);
    const [recorded, claimed] = await Promise.all([
      this.epochs.ledgerPaid(this.dataSource.manager, hotkeys),
      Promise.all(hotkeys.map((hotkey) => this.contract.claimedCumulativeRao(hotkey))),
    ]);
    for (const [i, entry] of tree.entries.entries()) {
      if (claimed[i] <= (recorded.get(entry.hotkey) ?? 0n)) continue;
      await this.dataSource.transaction(async (manager) => {
        await this.epochs.lockHotkeyClaims(manager, entry.hotkey);
        await this.reconcileLocked(manager, entry.hotkey, epoch, entry.recipientColdkey);
      });
    }
  }

  private claimError(error: unknown, epoch: number): unknown {
    if (error instanceof ChainUnavailableError) return ApiError.unavailable(ErrorCode.ChainUnavailable, 'The claim contract cannot be reached; retry later.');
    if (!(error instanceof ClaimContractError)) return error;
    const context = { epoch };
    switch (error.code) {
      case 'nothing_to_claim':
        return ApiError.conflict(ErrorCode.NothingToClaim, 'Everything this leaf pays has already been claimed.', context);
      case 'epoch_not_claimable':
      case 'unknown_epoch':
        return ApiError.conflict(ErrorCode.EpochNotClaimable, `Epoch ${epoch} is not claimable: only the latest published epoch is.`, context);
      case 'claims_not_open':
        return ApiError.conflict(ErrorCode.ClaimsNotOpen, `Claims of epoch ${epoch} are not open yet.`, context);
      case 'claims_locked':
        return ApiError.conflict(ErrorCode.ClaimsLocked, `Epoch ${epoch} is disputed: claims are locked while the challenge is active.`, context);
      case 'invalid_proof':
        return new ApiValidationError([{ type: ErrorCode.InvalidProof, loc: ['body', 'proof'], msg: error.message }]);
      // What the contract's state does not explain: the client sees the contract's own refusal, never a 500.
      case 'read_failed':
      case 'write_failed':
      case 'contract_reverted':
      case 'contract_trapped':
      case 'out_of_gas':
      case 'epoch_exists':
      case 'epoch_not_newer':
      case 'already_disputed':
      case 'not_disputed':
      case 'contract_error':
        return ApiError.conflict(ErrorCode.ClaimRefused, `The claim contract refused the claim: ${error.message}`, {
          ...context,
          contract_message: error.refused?.message ?? 'claim_single',
          refusal: error.refused?.refusal ?? error.code,
        });
    }
  }

  async ledger(epoch: string | null): Promise<ClaimLedgerDto> {
    const row = await this.epochRow(epoch);
    const claimable = await this.defaultEpoch();
    if (claimable !== null) await this.reconcileEpoch(claimable.epoch);
    const rows = await this.epochs.ledger(this.dataSource.manager, row.epoch);
    return {
      epoch: row.epoch,
      claims: rows.map((r) => ({ hotkey: r.hotkey, recipient_coldkey: r.recipientColdkey, amount: r.amount, paid: r.paid, block: r.block, reconciled: r.reconciled, claimed_at: r.createdAt.toISOString() })),
    };
  }
}
