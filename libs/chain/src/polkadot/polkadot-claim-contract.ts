import { readFile } from 'node:fs/promises';
import type { ApiPromise } from '@polkadot/api';
import { Abi, ContractPromise } from '@polkadot/api-contract';
import type { Enum, Option, Result, Struct } from '@polkadot/types';
import type { DispatchError, WeightV2 } from '@polkadot/types/interfaces';
import type { Codec, ISubmittableResult } from '@polkadot/types/types';
import { accountIdOf } from '../address';
import { hasRequiredMessages, readContractMetadata, type ContractMetadataSummary } from '../contract-metadata';
import { ChainUnavailableError, errorText } from '../errors';
import {
  CLAIM_CONTRACT_ERROR_CODES,
  ClaimContractError,
  claimStateOf,
  type ClaimContractPort,
  type ClaimContractState,
  type ClaimData,
  type ClaimReceipt,
  type ContractCaller,
  type ContractEpoch,
  type ContractTxReceipt,
  type HexHash,
  type OnchainStatus,
  type PublishEpochArgs,
} from '../ports/claim-contract.port';
import type { PolkadotConnection } from './polkadot-connection';
import { findStorage, storage } from './storage';

export const DEFAULT_CONTRACT_TX_TIMEOUT_MS = 120_000;

/** One message executed without a transaction: its decoded `MessageResult` payload and whether it reverted. */
interface DryRun {
  value: Codec;
  reverted: boolean;
  gasRequired: WeightV2;
}

type ChainFacts = Pick<
  OnchainStatus,
  'chain_reachable' | 'latest_block' | 'contract_info_present' | 'contract_account_free' | 'contract_account_reserved'
>;

/** `System::Account` as the metadata-decoded struct exposes it (fields are properties). */
interface AccountInfoCodec extends Codec {
  data: { free: Codec; reserved: Codec };
}

/**
 * The claim contract through `@polkadot/api-contract` and its ink! metadata: reads are
 * `ContractsApi_call` dry runs, transactions are dry-run first (the contract's refusal becomes a
 * `ClaimContractError` without paying a fee, and the dry run sizes the gas) and then sent as a signed
 * `Contracts::call`, settled when included in a block (`ExtrinsicFailed` is a failure, never ignored).
 */
export class PolkadotClaimContract implements ClaimContractPort {
  readonly #contracts = new WeakMap<ApiPromise, ContractPromise>();
  #metadata: Promise<Record<string, unknown>> | null = null;

  constructor(
    private readonly connection: PolkadotConnection,
    private readonly contractAddress: string | null,
    private readonly metadataPath: string | null,
    /** Bound on a transaction, from its dry run to its inclusion (blocks take seconds; reads keep `CHAIN_TIMEOUT_MS`). */
    private readonly txTimeoutMs = DEFAULT_CONTRACT_TX_TIMEOUT_MS,
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
      chain = await this.#run('claim contract status', (api) => this.#chainFacts(api));
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

  latestPublishedEpoch(): Promise<number | null> {
    return this.#run('claim contract get_latest_published_epoch', (api) => this.#latest(api));
  }

  epochInfo(epoch: number): Promise<ContractEpoch | null> {
    return this.#run('claim contract get_epoch_info', (api) => this.#epochInfo(api, epoch));
  }

  claimedCumulativeRao(hotkey: string): Promise<bigint> {
    const accountId = accountIdOf(hotkey);
    return this.#run('claim contract get_claimed_cumulative_rao', async (api) => {
      const { value } = await this.#read(api, 'get_claimed_cumulative_rao', [accountId]);
      return BigInt(value.toString());
    });
  }

  claimState(): Promise<ClaimContractState> {
    return this.#run('claim contract state', async (api) => {
      const [latest, header] = await Promise.all([this.#latest(api), api.rpc.chain.getHeader()]);
      const epoch = latest === null ? null : await this.#epochInfo(api, latest);
      return claimStateOf(latest, epoch, header.number.toNumber());
    });
  }

  publishEpoch(args: PublishEpochArgs, publisher: ContractCaller): Promise<ContractTxReceipt> {
    return this.#transact('publish_epoch', [args.epoch, args.root, args.numOfLeaves, args.totalRao, args.uri], publisher);
  }

  async claimSingle(data: ClaimData, transfer: boolean, caller: ContractCaller): Promise<ClaimReceipt> {
    const claim = {
      epoch: data.epoch,
      index: data.index,
      hotkey: accountIdOf(data.hotkey),
      recipientColdkey: accountIdOf(data.recipientColdkey),
      amount: data.amount,
      proof: data.proof,
    };
    // The contract reports the payment only in an event; callers read `get_claimed_cumulative_rao` when they need it.
    return { ...(await this.#transact('claim_single', [claim, transfer], caller)), paidRao: null };
  }

  challengeEpoch(epoch: number, evidenceHash: HexHash, challenger: ContractCaller): Promise<ContractTxReceipt> {
    return this.#transact('challenge_epoch', [epoch, evidenceHash], challenger);
  }

  resolveChallenge(epoch: number, slash: boolean, beneficiary: string, arbiter: ContractCaller): Promise<ContractTxReceipt> {
    return this.#transact('resolve_challenge', [epoch, slash, accountIdOf(beneficiary)], arbiter);
  }

  /** `connection.run`, except that the contract's refusal stays a `ClaimContractError` instead of becoming "chain unavailable". */
  async #run<T>(what: string, call: (api: ApiPromise) => Promise<T>, timeoutMs?: number): Promise<T> {
    const outcome = await this.connection.run(
      what,
      async (api): Promise<{ value: T } | { refused: ClaimContractError }> => {
        try {
          return { value: await call(api) };
        } catch (error) {
          if (error instanceof ClaimContractError) return { refused: error };
          throw error;
        }
      },
      timeoutMs,
    );
    if ('refused' in outcome) throw outcome.refused;
    return outcome.value;
  }

  async #latest(api: ApiPromise): Promise<number | null> {
    const { value } = await this.#read(api, 'get_latest_published_epoch', []);
    const latest = value as Option<Codec>;
    return latest.isSome ? Number(latest.unwrap().toString()) : null;
  }

  async #epochInfo(api: ApiPromise, epoch: number): Promise<ContractEpoch | null> {
    const { value } = await this.#read(api, 'get_epoch_info', [epoch]);
    const info = value as Option<Struct>;
    if (info.isNone) return null;
    const fields = info.unwrap();
    const field = (name: string): Codec => {
      const codec = fields.get(name);
      if (!codec) throw new ChainUnavailableError(`the claim contract's Epoch has no field ${name}`);
      return codec;
    };
    return {
      root: field('root').toHex(),
      numOfLeaves: Number(field('numOfLeaves').toString()),
      totalRao: BigInt(field('totalRao').toString()),
      spentRao: BigInt(field('spentRao').toString()),
      disputed: field('disputed').toJSON() === true,
      claimsOpenAt: Number(field('claimsOpenAt').toString()),
      bondRao: BigInt(field('bondRao').toString()),
    };
  }

  /** A read-only message; a revert is the contract failing, not refusing. */
  async #read(api: ApiPromise, label: string, args: unknown[]): Promise<DryRun> {
    const run = await this.#dryRun(api, label, args, this.contractAddress ?? '');
    if (run.reverted) throw new ClaimContractError('contract_error', `${label} reverted`);
    return run;
  }

  async #dryRun(api: ApiPromise, label: string, args: unknown[], origin: string): Promise<DryRun> {
    const contract = await this.#contract(api);
    const message = this.#message(contract, label);
    const { result, output, gasRequired } = await contract.query[message.method](origin, {}, ...args);
    if (result.isErr) throw new ChainUnavailableError(`claim contract ${label} could not run: ${dispatchErrorText(api, result.asErr)}`);
    if (!output) throw new ChainUnavailableError(`claim contract ${label} answered no output`);
    // Every ink! message answers MessageResult<T> = Result<T, LangError>.
    const messageResult = output as Result<Codec, Codec>;
    if (messageResult.isErr) throw new ClaimContractError('contract_error', `${label}: ink! ${messageResult.asErr.toString()}`);
    return { value: messageResult.asOk, reverted: (result.asOk.flags.toU8a()[0] & 1) === 1, gasRequired };
  }

  async #transact(label: string, args: unknown[], signer: ContractCaller): Promise<ContractTxReceipt> {
    return this.#run(`claim contract ${label}`, async (api) => {
      const dryRun = await this.#dryRun(api, label, args, signer.address);
      throwIfRefused(label, dryRun);
      const contract = await this.#contract(api);
      const tx = contract.tx[this.#message(contract, label).method]({ gasLimit: dryRun.gasRequired, storageDepositLimit: null }, ...args);
      const included = await new Promise<ISubmittableResult>((resolve, reject) => {
        let settled = false;
        let unsubscribe: (() => void) | null = null;
        const settle = (finish: () => void): void => {
          if (settled) return;
          settled = true;
          unsubscribe?.();
          finish();
        };
        tx.signAndSend(signer, (result: ISubmittableResult) => {
          const { status } = result;
          if (status.isInvalid || status.isDropped || status.isUsurped || status.isRetracted || status.isFinalityTimeout) {
            settle(() => reject(new ChainUnavailableError(`claim contract ${label}: transaction ${status.type}`)));
          } else if (status.isInBlock || status.isFinalized) {
            settle(() => resolve(result));
          }
        }).then(
          (stop) => {
            unsubscribe = stop;
            if (settled) stop();
          },
          (error: unknown) => settle(() => reject(error)),
        );
      });
      if (included.dispatchError) {
        const reason = dispatchErrorText(api, included.dispatchError);
        // The contract refused at inclusion (its state moved since the dry run): ask it why.
        if (reason === 'contracts.ContractReverted') throwIfRefused(label, await this.#dryRun(api, label, args, signer.address));
        throw new ClaimContractError('contract_error', `claim contract ${label} failed in block: ${reason}`);
      }
      const blockHash = included.status.isInBlock ? included.status.asInBlock : included.status.asFinalized;
      const block = (await api.rpc.chain.getHeader(blockHash)).number.toNumber();
      return { block, txHash: included.txHash.toHex() };
    }, this.txTimeoutMs);
  }

  async #contract(api: ApiPromise): Promise<ContractPromise> {
    const cached = this.#contracts.get(api);
    if (cached) return cached;
    if (this.contractAddress === null || this.metadataPath === null) {
      throw new ChainUnavailableError('claim contract not configured: CLAIM_CONTRACT_ADDRESS and CLAIM_CONTRACT_METADATA_PATH are required');
    }
    const contract = new ContractPromise(api, new Abi(await this.#loadMetadata(this.metadataPath), api.registry.getChainProperties()), this.contractAddress);
    this.#contracts.set(api, contract);
    return contract;
  }

  #loadMetadata(path: string): Promise<Record<string, unknown>> {
    this.#metadata ??= readFile(path, 'utf8').then(
      (text) => JSON.parse(text) as Record<string, unknown>,
      (error: unknown) => {
        this.#metadata = null;
        throw new ChainUnavailableError(`claim contract metadata not readable at ${path}: ${errorText(error)}`);
      },
    );
    return this.#metadata;
  }

  #message(contract: ContractPromise, label: string) {
    const message = contract.abi.messages.find((candidate) => candidate.identifier === label);
    if (!message) throw new ChainUnavailableError(`the claim contract's metadata has no message ${label}`);
    return message;
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

/** A mutating message answers `Result<(), Error>`; its `Err` variant (snake_cased) is the refusal's code. */
function throwIfRefused(label: string, run: DryRun): void {
  const outcome = run.value as Result<Codec, Enum> | Codec;
  const refused = 'isErr' in outcome && outcome.isErr;
  if (!refused && !run.reverted) return;
  const variant = refused ? (outcome as Result<Codec, Enum>).asErr.type : 'Reverted';
  const code = CLAIM_CONTRACT_ERROR_CODES.find((known) => known === snakeCase(variant));
  throw new ClaimContractError(code ?? 'contract_error', `claim contract refused ${label}: ${variant}`);
}

function snakeCase(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
}

function dispatchErrorText(api: ApiPromise, error: DispatchError): string {
  if (error.isModule) {
    try {
      const { section, name } = api.registry.findMetaError(error.asModule);
      return `${section}.${name}`;
    } catch {
      return error.toString();
    }
  }
  return error.type;
}

