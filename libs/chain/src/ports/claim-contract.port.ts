import type { KeyringPair } from '@polkadot/keyring/types';

/** Messages the payout claim contract must expose (DECISIONS.md §8). */
export const REQUIRED_CLAIM_CONTRACT_MESSAGES = ['publish_epoch', 'claim_single', 'challenge_epoch'] as const;

/** Every message this port calls (DECISIONS.md §8: the claim contract's public ink! metadata). */
export const CLAIM_CONTRACT_MESSAGES = [
  'publish_epoch',
  'claim_single',
  'challenge_epoch',
  'resolve_challenge',
  'get_latest_published_epoch',
  'get_claimed_cumulative_rao',
  'get_epoch_info',
] as const;

/** Body of `GET /api/v1/onchain/status`, field for field as the coordinator spec lists it. */
export interface OnchainStatus {
  configured: boolean;
  ws_url: string;
  contract: string;
  metadata_path: string;
  metadata_exists: boolean;
  metadata_messages: string[];
  required_messages_present: boolean;
  chain_reachable: boolean | null;
  latest_block: number | null;
  contract_info_present: boolean | null;
  contract_account_free: number | null;
  contract_account_reserved: number | null;
  error: string | null;
}

export type HexHash = `0x${string}`;

/** The contract's `Epoch` as `get_epoch_info` returns it (amounts in rao, `u64`). */
export interface ContractEpoch {
  root: HexHash;
  numOfLeaves: number;
  totalRao: bigint;
  spentRao: bigint;
  /** A challenge is active (or was upheld): claims are locked. */
  disputed: boolean;
  /** First block at which claims are accepted. */
  claimsOpenAt: number;
  bondRao: bigint;
}

/** `publish_epoch(epoch u64, root Hash, num_of_leaves u32, total_rao u64, uri String)`. */
export interface PublishEpochArgs {
  epoch: number;
  root: HexHash;
  numOfLeaves: number;
  /** Σ leaf amounts. */
  totalRao: bigint;
  /** Where the epoch's allocation document is served. */
  uri: string;
}

/** `ClaimData {epoch u64, index u32, hotkey AccountId, recipient_coldkey AccountId, amount u64, proof Vec<Hash>}`. */
export interface ClaimData {
  epoch: number;
  index: number;
  /** SS58 of any prefix. */
  hotkey: string;
  recipientColdkey: string;
  /** Cumulative rao of the leaf. */
  amount: bigint;
  proof: HexHash[];
}

/** Whoever signs a contract transaction: the `polkadot` adapter signs with the pair, `dev` records its address. */
export type ContractCaller = KeyringPair;

/** The contract's events (its metadata's `EpochPublished`, `Claimed`, `Challenged`, `ChallengeResolved`). */
export type ClaimContractEvent =
  | { name: 'EpochPublished'; epoch: number; root: HexHash; totalRao: bigint; uri: string }
  /** `amountRao`: what this claim paid. */
  | { name: 'Claimed'; epoch: number; index: number; hotkey: string; recipient: string; amountRao: bigint }
  | { name: 'Challenged'; epoch: number; evidenceHash: HexHash; challenger: string }
  | { name: 'ChallengeResolved'; epoch: number; slashed: boolean; resolver: string };

/** A contract transaction included in a block. */
export interface ContractTxReceipt {
  block: number;
  /** The extrinsic hash (`polkadot`) or a stand-in (`dev`). */
  txHash: HexHash;
  /** What the contract emitted for this transaction (`polkadot`: decoded from the block with the metadata). */
  events: ClaimContractEvent[];
}

export interface ClaimReceipt extends ContractTxReceipt {
  /** What the claim paid (leaf amount − claimed before), from its `Claimed` event; null when the block carried none. */
  paidRao: bigint | null;
}

/** The claim state of the latest published epoch, as `/status` and the claim routes report it. */
export interface ClaimContractState {
  latestEpoch: number | null;
  currentBlock: number;
  /** The latest epoch as the contract holds it, or null before the first publication. */
  epoch: ContractEpoch | null;
  /** `disputed` of the latest epoch (an active veto/challenge). */
  vetoActive: boolean;
  /** The latest epoch exists, is not disputed and `claims_open_at` has passed. */
  claimReady: boolean;
}

/**
 * How the real contract refuses (DECISIONS §8): `Err(ReadWriteErrorCode::ReadFailed | WriteFailed)`,
 * a revert without a decodable answer, a trap, or running out of gas. It says nothing more.
 */
export const CONTRACT_REFUSALS = ['read_failed', 'write_failed', 'contract_reverted', 'contract_trapped', 'out_of_gas'] as const;
export type ContractRefusal = (typeof CONTRACT_REFUSALS)[number];

/**
 * Why the contract refused a message. The `dev` contract answers the domain codes directly; the
 * `polkadot` adapter reads the contract's state after a refusal to find the domain code that explains
 * it (`epoch_exists`, `nothing_to_claim`, …) and otherwise answers the refusal itself (`CONTRACT_REFUSALS`).
 */
export const CLAIM_CONTRACT_ERROR_CODES = [
  'epoch_exists',
  'epoch_not_newer',
  'unknown_epoch',
  'epoch_not_claimable',
  'claims_not_open',
  'claims_locked',
  'invalid_proof',
  'nothing_to_claim',
  'already_disputed',
  'not_disputed',
  ...CONTRACT_REFUSALS,
  'contract_error',
] as const;
export type ClaimContractErrorCode = (typeof CLAIM_CONTRACT_ERROR_CODES)[number];

/** The contract refused the message (a revert); nothing changed on chain. */
export class ClaimContractError extends Error {
  constructor(
    readonly code: ClaimContractErrorCode,
    message: string,
    /** The message refused (`polkadot`: always set), and how the contract itself refused it. */
    readonly refused: { message: string; refusal: ContractRefusal } | null = null,
  ) {
    super(message);
    this.name = 'ClaimContractError';
  }
}

/**
 * The payout claim contract. Reads and transactions reject with `ChainUnavailableError` when the
 * chain cannot answer (or the contract is not configured), with `ClaimContractError` when the
 * contract refuses the message.
 */
export interface ClaimContractPort {
  /** Never rejects: chain and metadata failures are reported inside the status. */
  status(): Promise<OnchainStatus>;
  /**
   * Rejects when the configured contract metadata is not that of the contract this adapter speaks
   * (`polkadot`: merklepool a642a7de; an older `ClaimData` without the hotkey is refused). Apps that
   * transact call it at start; no chain is needed.
   */
  checkMetadata(): Promise<void>;
  /** `get_latest_published_epoch`. */
  latestPublishedEpoch(): Promise<number | null>;
  /** `get_epoch_info`; null for an epoch the contract does not have (its `Err`). */
  epochInfo(epoch: number): Promise<ContractEpoch | null>;
  /** `get_claimed_cumulative_rao`: what the hotkey has claimed over all epochs. */
  claimedCumulativeRao(hotkey: string): Promise<bigint>;
  /** The latest epoch's claim and challenge state. */
  claimState(): Promise<ClaimContractState>;
  /** `publish_epoch`, from the publisher key; `epoch_exists` when it is already there (compare its root). */
  publishEpoch(args: PublishEpochArgs, publisher: ContractCaller): Promise<ContractTxReceipt>;
  /** `claim_single(data, transfer)`: pays `amount − claimed` of the hotkey to the leaf's recipient. */
  claimSingle(data: ClaimData, transfer: boolean, caller: ContractCaller): Promise<ClaimReceipt>;
  /** `challenge_epoch(epoch, evidence_hash)`: locks the epoch's claims. */
  challengeEpoch(epoch: number, evidenceHash: HexHash, challenger: ContractCaller): Promise<ContractTxReceipt>;
  /** `resolve_challenge(epoch, slash, beneficiary)`: `slash` upholds the challenge (the epoch stays locked), else claims resume. */
  resolveChallenge(epoch: number, slash: boolean, beneficiary: string, arbiter: ContractCaller): Promise<ContractTxReceipt>;
  close(): Promise<void>;
}

/** Whether the latest epoch accepts claims at `currentBlock`. */
export function claimStateOf(latestEpoch: number | null, epoch: ContractEpoch | null, currentBlock: number): ClaimContractState {
  const vetoActive = epoch?.disputed ?? false;
  return {
    latestEpoch,
    currentBlock,
    epoch,
    vetoActive,
    claimReady: epoch !== null && !epoch.disputed && currentBlock >= epoch.claimsOpenAt,
  };
}
