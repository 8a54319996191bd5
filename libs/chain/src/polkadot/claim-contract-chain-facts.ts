import type { ApiPromise } from '@polkadot/api';
import type { Codec } from '@polkadot/types/types';
import { accountIdOf } from '../address';
import type { OnchainStatus } from '../ports/claim-contract.port';
import { findStorage, storage } from './storage';

/** What `/status` reports of the chain beside the claim contract's configuration. */
export type ChainFacts = Pick<
  OnchainStatus,
  'chain_reachable' | 'latest_block' | 'contract_info_present' | 'contract_account_free' | 'contract_account_reserved'
>;

/** `System::Account` as the metadata-decoded struct exposes it (fields are properties). */
interface AccountInfoCodec extends Codec {
  data: { free: Codec; reserved: Codec };
}

/** The latest block, and the contract's info and account balances (null where there is no address or no pallet-contracts). */
export async function chainFacts(api: ApiPromise, contractAddress: string | null): Promise<ChainFacts> {
  const latestBlock = (await api.rpc.chain.getHeader()).number.toNumber();
  if (contractAddress === null) {
    return { chain_reachable: true, latest_block: latestBlock, contract_info_present: null, contract_account_free: null, contract_account_reserved: null };
  }
  const accountId = accountIdOf(contractAddress);
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
