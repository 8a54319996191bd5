import { readFile } from 'node:fs/promises';
import type { ApiPromise } from '@polkadot/api';
import { Abi, ContractPromise } from '@polkadot/api-contract';
import type { Enum, Option, Result, Struct } from '@polkadot/types';
import type { Codec } from '@polkadot/types/types';
import { verifyClaimPackage } from '@rcs/merkle';
import { accountIdOf, toSs58 } from '../address';
import { hasRequiredMessages, readContractMetadata, type ContractMetadataSummary } from '../contract-metadata';
import { ChainUnavailableError, errorText } from '../errors';
import {
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
import { challengeRefusal, claimRefusal, resolveRefusal } from '../ports/claim-rules';
import type { PolkadotConnection } from './polkadot-connection';
import { assertMerklepoolMetadata } from './merklepool-metadata';
import { chainFacts, type ChainFacts } from './claim-contract-chain-facts';
import { contractEventOf } from './claim-contract-events';
import { includedInBlock } from './claim-contract-inclusion';
import { DISPATCH_REFUSALS, dispatchErrorText, explained, refusalOf, refusedError, type DryRun, type Explain, type Explanation } from './claim-contract-refusals';

export const DEFAULT_CONTRACT_TX_TIMEOUT_MS = 120_000;

/**
 * The claim contract (`MERKLEPOOL_COMPATIBLE_VERSION`) through `@polkadot/api-contract` and its ink!
 * metadata, which must declare the shapes of `merklepool-metadata.ts`: reads are `ContractsApi_call`
 * dry runs, transactions are dry-run first (the contract's refusal becomes a `ClaimContractError`
 * without paying a fee, and the dry run sizes the gas) and then sent as a signed `Contracts::call`,
 * settled when included in a block (`ExtrinsicFailed` is a failure, never ignored) and read back from
 * the contract's events. The contract refuses only with `ReadFailed`/`WriteFailed` or a trap, so a
 * refusal is explained by reading its state (`get_epoch_info`, `get_claimed_cumulative_rao`).
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
      chain = await this.#run('claim contract status', (api) => chainFacts(api, this.contractAddress));
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
    return this.#run('claim contract get_claimed_cumulative_rao', (api) => this.#claimed(api, hotkey));
  }

  claimState(): Promise<ClaimContractState> {
    return this.#run('claim contract state', async (api) => {
      const [latest, header] = await Promise.all([this.#latest(api), api.rpc.chain.getHeader()]);
      const epoch = latest === null ? null : await this.#epochInfo(api, latest);
      return claimStateOf(latest, epoch, header.number.toNumber());
    });
  }

  async checkMetadata(): Promise<void> {
    if (this.metadataPath === null) return;
    await this.#loadMetadata(this.metadataPath);
  }

  async publishEpoch(args: PublishEpochArgs, publisher: ContractCaller): Promise<ContractTxReceipt> {
    const receipt = await this.#transact('publish_epoch', [args.epoch, args.root, args.numOfLeaves, args.totalRao, args.uri], publisher, async (api) => {
      const existing = await this.#epochInfo(api, args.epoch);
      if (existing !== null) return { code: 'epoch_exists', why: `epoch ${args.epoch} is already published (root ${existing.root})` };
      const latest = await this.#latest(api);
      if (latest !== null && latest >= args.epoch) return { code: 'epoch_not_newer', why: `epoch ${args.epoch} is not newer than the latest published epoch ${latest}` };
      return null;
    });
    // The contract confirms a publication by its event; a block without it did not publish this root.
    const confirmed = receipt.events.some((event) => event.name === 'EpochPublished' && event.epoch === args.epoch && event.root.toLowerCase() === args.root.toLowerCase());
    if (!confirmed) throw new ClaimContractError('contract_error', `claim contract publish_epoch: block ${receipt.block} has no EpochPublished event for epoch ${args.epoch} with root ${args.root}`);
    return receipt;
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
    const receipt = await this.#transact('claim_single', [claim, transfer], caller, (api) => this.#explainClaim(api, data));
    const hotkey = toSs58(data.hotkey);
    const paid = receipt.events.find((event) => event.name === 'Claimed' && event.epoch === data.epoch && event.hotkey === hotkey);
    return { ...receipt, paidRao: paid?.name === 'Claimed' ? paid.amountRao : null };
  }

  challengeEpoch(epoch: number, evidenceHash: HexHash, challenger: ContractCaller): Promise<ContractTxReceipt> {
    return this.#transact('challenge_epoch', [epoch, evidenceHash], challenger, async (api) => challengeRefusal(epoch, await this.#epochInfo(api, epoch)));
  }

  resolveChallenge(epoch: number, slash: boolean, beneficiary: string, arbiter: ContractCaller): Promise<ContractTxReceipt> {
    return this.#transact('resolve_challenge', [epoch, slash, accountIdOf(beneficiary)], arbiter, async (api) => resolveRefusal(epoch, await this.#epochInfo(api, epoch)));
  }

  /** Why a claim was refused, from what the contract holds (the checks of DECISIONS §8, in the dev contract's order). */
  async #explainClaim(api: ApiPromise, data: ClaimData): Promise<Explanation> {
    const [epoch, latest, header, claimed] = await Promise.all([this.#epochInfo(api, data.epoch), this.#latest(api), api.rpc.chain.getHeader(), this.#claimed(api, data.hotkey)]);
    const proofLeads = (info: ContractEpoch): boolean => {
      const claim = { epoch: data.epoch, index: data.index, hotkey: data.hotkey, recipient_coldkey: data.recipientColdkey, amount: data.amount.toString(), proof: data.proof };
      return verifyClaimPackage({ ...claim, root: info.root, leaf_count: info.numOfLeaves }, { root: info.root, leafCount: info.numOfLeaves }).ok;
    };
    return claimRefusal(data, { epoch, latest, block: header.number.toNumber(), claimed }, proofLeads);
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
      { timeoutMs },
    );
    if ('refused' in outcome) throw outcome.refused;
    return outcome.value;
  }

  /** `get_latest_published_epoch() -> Option<u64>`. */
  async #latest(api: ApiPromise): Promise<number | null> {
    const { value } = await this.#read(api, 'get_latest_published_epoch', []);
    const latest = value as Option<Codec>;
    return latest.isSome ? Number(latest.unwrap().toString()) : null;
  }

  /** `get_claimed_cumulative_rao(hotkey: AccountId) -> u64`. */
  async #claimed(api: ApiPromise, hotkey: string): Promise<bigint> {
    const { value } = await this.#read(api, 'get_claimed_cumulative_rao', [accountIdOf(hotkey)]);
    return BigInt(value.toString());
  }

  /** `get_epoch_info(epoch: u64) -> Result<Epoch, ReadWriteErrorCode>`: an epoch the contract does not hold is its `Err`. */
  async #epochInfo(api: ApiPromise, epoch: number): Promise<ContractEpoch | null> {
    const { value } = await this.#read(api, 'get_epoch_info', [epoch]);
    const info = value as Result<Struct, Enum>;
    if (info.isErr) return null;
    const fields = info.asOk;
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

  /** A read-only message; a revert or a trap is the contract failing, reported with the message's name. */
  async #read(api: ApiPromise, label: string, args: unknown[]): Promise<DryRun> {
    const run = await this.#dryRun(api, label, args, this.contractAddress ?? '');
    if (run.reverted) throw new ClaimContractError('contract_reverted', `claim contract ${label} reverted`, { message: label, refusal: 'contract_reverted' });
    return run;
  }

  /** Executes the message at the best block; a trap or running out of gas is a `ClaimContractError` naming the message. */
  async #dryRun(api: ApiPromise, label: string, args: unknown[], origin: string): Promise<DryRun> {
    const contract = await this.#contract(api);
    const message = this.#message(contract, label);
    const { result, output, gasRequired } = await contract.query[message.method](origin, {}, ...args);
    if (result.isErr) {
      const reason = dispatchErrorText(api, result.asErr);
      const refusal = DISPATCH_REFUSALS[reason];
      if (refusal) throw refusedError(label, refusal, reason);
      throw new ChainUnavailableError(`claim contract ${label} could not run: ${reason}`);
    }
    if (!output) throw new ChainUnavailableError(`claim contract ${label} answered no output`);
    // Every ink! message answers MessageResult<T> = Result<T, LangError>.
    const messageResult = output as Result<Codec, Codec>;
    if (messageResult.isErr) throw new ClaimContractError('contract_error', `claim contract ${label}: ink! ${messageResult.asErr.toString()}`);
    return { value: messageResult.asOk, reverted: (result.asOk.flags.toU8a()[0] & 1) === 1, gasRequired };
  }

  /**
   * Dry-runs the message (a refusal costs no fee), sends it signed, and settles it at inclusion. A
   * refusal, at either step, is explained from the contract's state when the state explains it.
   */
  async #transact(label: string, args: unknown[], signer: ContractCaller, explain: Explain): Promise<ContractTxReceipt> {
    return this.#run(`claim contract ${label}`, async (api) => {
      const refused = async (error: ClaimContractError): Promise<never> => {
        throw await explained(api, error, explain);
      };
      const dryRun = await this.#dryRun(api, label, args, signer.address).catch((error: unknown) => {
        if (error instanceof ClaimContractError && error.refused !== null) return refused(error);
        throw error;
      });
      const answer = refusalOf(label, dryRun);
      if (answer !== null) await refused(answer);
      const contract = await this.#contract(api);
      const tx = contract.tx[this.#message(contract, label).method]({ gasLimit: dryRun.gasRequired, storageDepositLimit: null }, ...args);
      const included = await includedInBlock(tx, signer, label);
      if (included.dispatchError) {
        const reason = dispatchErrorText(api, included.dispatchError);
        const refusal = DISPATCH_REFUSALS[reason];
        // The contract refused in the block (its state moved since the dry run): its state says why.
        if (refusal) await refused(refusedError(label, refusal, `${reason} in block`));
        throw new ClaimContractError('contract_error', `claim contract ${label} failed in block: ${reason}`);
      }
      const blockHash = included.status.isInBlock ? included.status.asInBlock : included.status.asFinalized;
      const block = (await api.rpc.chain.getHeader(blockHash)).number.toNumber();
      return { block, txHash: included.txHash.toHex(), events: (included.contractEvents ?? []).flatMap(contractEventOf) };
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
    this.#metadata ??= readFile(path, 'utf8')
      .then(
        (text) => JSON.parse(text) as Record<string, unknown>,
        (error: unknown) => {
          throw new ChainUnavailableError(`claim contract metadata not readable at ${path}: ${errorText(error)}`);
        },
      )
      .then((metadata) => {
        assertMerklepoolMetadata(metadata, path);
        return metadata;
      })
      .catch((error: unknown) => {
        this.#metadata = null;
        throw error;
      });
    return this.#metadata;
  }

  #message(contract: ContractPromise, label: string) {
    const message = contract.abi.messages.find((candidate) => candidate.identifier === label);
    if (!message) throw new ChainUnavailableError(`the claim contract's metadata has no message ${label}`);
    return message;
  }
}
