import type { ApiPromise } from '@polkadot/api';
import type { Codec } from '@polkadot/types/types';
import { accountIdOf } from '../address';
import { hasRequiredMessages, readContractMetadata, type ContractMetadataSummary } from '../contract-metadata';
import { errorText } from '../errors';
import type { ClaimContractPort, OnchainStatus } from '../ports/claim-contract.port';
import type { PolkadotConnection } from './polkadot-connection';
import { findStorage, storage } from './storage';

type ChainFacts = Pick<
  OnchainStatus,
  'chain_reachable' | 'latest_block' | 'contract_info_present' | 'contract_account_free' | 'contract_account_reserved'
>;

/** `System::Account` as the metadata-decoded struct exposes it (fields are properties). */
interface AccountInfoCodec extends Codec {
  data: { free: Codec; reserved: Codec };
}

/** The claim contract's status as the chain and its ink! metadata file report it. */
export class PolkadotClaimContract implements ClaimContractPort {
  constructor(
    private readonly connection: PolkadotConnection,
    private readonly contractAddress: string | null,
    private readonly metadataPath: string | null,
  ) {}

  async status(): Promise<OnchainStatus> {
    const errors: string[] = [];
    const missing = [
      ...(this.contractAddress === null ? ['CLAIM_CONTRACT_ADDRESS'] : []),
      ...(this.metadataPath === null ? ['CLAIM_CONTRACT_METADATA_PATH'] : []),
    ];
    if (missing.length > 0) errors.push(`claim contract not configured: ${missing.join(', ')} unset`);
    const metadata: ContractMetadataSummary =
      this.metadataPath === null ? { exists: false, messages: [], error: null } : await readContractMetadata(this.metadataPath);
    if (metadata.error !== null) errors.push(metadata.error);

    let chain: ChainFacts;
    try {
      chain = await this.connection.run('claim contract status', (api) => this.#chainFacts(api));
    } catch (error) {
      errors.push(errorText(error));
      chain = {
        chain_reachable: false,
        latest_block: null,
        contract_info_present: null,
        contract_account_free: null,
        contract_account_reserved: null,
      };
    }
    return {
      configured: missing.length === 0,
      ws_url: this.connection.wsUrl,
      contract: this.contractAddress ?? '',
      metadata_path: this.metadataPath ?? '',
      metadata_exists: metadata.exists,
      metadata_messages: metadata.messages,
      required_messages_present: hasRequiredMessages(metadata.messages),
      ...chain,
      error: errors.length > 0 ? errors.join('; ') : null,
    };
  }

  close(): Promise<void> {
    return this.connection.close();
  }

  async #chainFacts(api: ApiPromise): Promise<ChainFacts> {
    const latestBlock = (await api.rpc.chain.getHeader()).number.toNumber();
    if (this.contractAddress === null) {
      return { chain_reachable: true, latest_block: latestBlock, contract_info_present: null, contract_account_free: null, contract_account_reserved: null };
    }
    const accountId = accountIdOf(this.contractAddress);
    // A runtime without pallet-contracts cannot say whether the contract exists.
    const contractInfoOf = findStorage(api, 'contracts', 'contractInfoOf');
    const [info, account] = await Promise.all([
      contractInfoOf ? contractInfoOf(accountId) : null,
      storage(api, 'system', 'account')(accountId) as Promise<AccountInfoCodec>,
    ]);
    return {
      chain_reachable: true,
      latest_block: latestBlock,
      contract_info_present: info === null ? null : !info.isEmpty,
      contract_account_free: Number(account.data.free.toString()),
      contract_account_reserved: Number(account.data.reserved.toString()),
    };
  }
}
