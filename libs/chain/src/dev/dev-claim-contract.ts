import { REQUIRED_CLAIM_CONTRACT_MESSAGES, type ClaimContractPort, type OnchainStatus } from '../ports/claim-contract.port';
import type { DevChain } from './dev-chain';

/** The dev chain's stand-in for the claim contract: always configured, reachable and complete. */
export class DevClaimContract implements ClaimContractPort {
  constructor(private readonly chain: DevChain) {}

  async status(): Promise<OnchainStatus> {
    return {
      configured: true,
      ws_url: 'dev://local',
      contract: 'dev',
      metadata_path: 'dev://builtin',
      metadata_exists: true,
      metadata_messages: [...REQUIRED_CLAIM_CONTRACT_MESSAGES],
      required_messages_present: true,
      chain_reachable: true,
      latest_block: this.chain.currentBlock(),
      contract_info_present: true,
      contract_account_free: 0,
      contract_account_reserved: 0,
      error: null,
    };
  }

  async close(): Promise<void> {
    // The dev chain is closed through its SubtensorPort face.
  }
}
