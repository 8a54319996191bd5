/** Messages the payout claim contract must expose (DECISIONS.md §8). */
export const REQUIRED_CLAIM_CONTRACT_MESSAGES = ['publish_epoch', 'claim_single', 'challenge_epoch'] as const;

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

export interface ClaimContractPort {
  /** Never rejects: chain and metadata failures are reported inside the status. */
  status(): Promise<OnchainStatus>;
  close(): Promise<void>;
}
