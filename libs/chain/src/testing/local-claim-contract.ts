import { readFileSync } from 'node:fs';
import { Abi } from '@polkadot/api-contract';
import { Metadata, TypeRegistry, type Enum } from '@polkadot/types';
import type { Codec } from '@polkadot/types/types';
import { compactAddLength, u8aConcat, u8aToHex, u8aToU8a } from '@polkadot/util';
import { blake2AsU8a } from '@polkadot/util-crypto';
import type { Redis } from 'ioredis';
import { toSs58 } from '../address';
import { DevChain } from '../dev/dev-chain';
import { DevClaimContract } from '../dev/dev-claim-contract';
import { devChainKey } from '../dev/dev-weights-store';
import { ClaimContractError, type ClaimContractErrorCode, type ClaimContractEvent, type HexHash } from '../ports/claim-contract.port';
import { RpcMethodError, SUBTENSOR_DEVNET_METADATA_PATH, type LocalRpcServer, type RpcSession } from './local-rpc-server';
import { readMerklepoolMetadata } from './merklepool-metadata-files';
import { scale, storageKey } from './storage-keys';

type Hex = `0x${string}`;

export interface LocalClaimContractOptions {
  /** SS58 address the contract is deployed at. */
  address: string;
  /** The contract's state lives here, under `keyPrefix` (the dev contract's layout). */
  redis: Redis;
  keyPrefix: string;
  /** ink! metadata the node decodes calls and encodes answers with; BitSota's merklepool a642a7de by default. */
  metadata?: Record<string, unknown>;
  /** The runtime metadata the server was started with (the Subtensor devnet one by default). */
  runtimeMetadataPath?: string;
}

/** A contract call the node included in a block. */
export interface IncludedContractCall {
  block: number;
  signer: string;
  message: string;
  /** The decoded arguments as JSON (`Codec.toJSON()`). */
  args: unknown[];
  reverted: boolean;
}

interface PalletInfo {
  index: number;
  pallet: TypeRegistry['metadata']['pallets'][number];
}

/** How the real contract refuses (its only error type is `ReadWriteErrorCode`), or a trap of pallet-contracts. */
export type ForcedOutcome = 'ReadFailed' | 'WriteFailed' | 'ContractTrapped' | 'OutOfGas';

/** A message's execution: its answer (reverted or not) with the events it emitted, or a trap. */
type ExecOutcome = { data: Uint8Array; reverted: boolean; events: ClaimContractEvent[] } | { trapped: 'ContractTrapped' | 'OutOfGas' };

/**
 * Which `ReadWriteErrorCode` the contract answers for a refusal the dev contract names. The contract's
 * source is private: an epoch it cannot read is `ReadFailed`, any other refusal `WriteFailed`. The
 * adapter does not depend on which: it explains every refusal from the contract's state.
 */
export function readWriteErrorOf(code: ClaimContractErrorCode): 'ReadFailed' | 'WriteFailed' {
  return code === 'unknown_epoch' ? 'ReadFailed' : 'WriteFailed';
}

/**
 * The claim contract deployed on a `LocalRpcServer`: contract reads and dry runs through
 * `state_call ContractsApi_call`, transactions through `author_submitAndWatchExtrinsic` of a
 * signed `Contracts::call` extrinsic, each included in a new block whose `System::Events` say
 * whether it succeeded (`ContractReverted` when the contract refused). The contract's messages are
 * decoded with its ink! metadata and answered by a `DevClaimContract` over the test's Redis prefix,
 * so the polkadot adapter is tested against the same contract semantics as the dev chain. Dry runs
 * execute on a scratch copy of that state.
 */
export class LocalClaimContract {
  readonly included: IncludedContractCall[] = [];
  /** Runs once between the next submission and its execution, e.g. to change state behind a dry run. */
  beforeNextInclusion: (() => Promise<void>) | null = null;
  /** Messages answered by force, in dry runs and in blocks alike, until the test deletes them (a refusal or trap the state does not explain). */
  readonly forced = new Map<string, ForcedOutcome>();
  readonly abi: Abi;
  /** The contract's state, for seeding and inspection. */
  readonly engine: DevClaimContract;
  readonly #registry = new TypeRegistry();
  readonly #accountId: Uint8Array;
  readonly #blocks = new Map<number, Hex[]>();
  readonly #nonces = new Map<string, number>();
  #scratch = 0;
  /** The block an extrinsic executes in (best + 1); dry runs execute at the best block. */
  #executingBlock: number | null = null;

  constructor(
    private readonly server: LocalRpcServer,
    private readonly options: LocalClaimContractOptions,
  ) {
    const metadata = new Metadata(this.#registry, new Uint8Array(readFileSync(options.runtimeMetadataPath ?? SUBTENSOR_DEVNET_METADATA_PATH)));
    this.#registry.setMetadata(metadata, undefined, undefined, true); // the adapter under test warns about unknown extensions already
    this.abi = new Abi(options.metadata ?? readMerklepoolMetadata());
    this.#accountId = this.#registry.createType('AccountId32', options.address).toU8a();
    this.engine = this.#engineAt(options.keyPrefix);
    server.handleRuntimeCall('ContractsApi_call', (data) => this.#contractsApiCall(data));
    server.handle('system_accountNextIndex', ([address]) => this.#nonces.get(toSs58(String(address))) ?? 0);
    server.handle('author_submitAndWatchExtrinsic', ([extrinsic], session) => this.#submit(String(extrinsic) as Hex, session));
    server.handle('author_unwatchExtrinsic', () => true);
    server.handle('chain_getBlock', ([hash]) => {
      const block = hash === undefined || hash === null ? server.bestBlock : server.blockNumberOf(hash);
      return block === null ? null : { block: { header: server.header(block), extrinsics: this.#blocks.get(block) ?? [] }, justifications: null };
    });
  }

  /** The dev contract over `prefix`, whose blocks are the node's. */
  #engineAt(prefix: string): DevClaimContract {
    const chain = new DevChain({ now: () => this.#executingBlock ?? this.server.bestBlock, genesisMs: 0, blockTimeMs: 1 });
    return new DevClaimContract(chain, this.options.redis, prefix);
  }

  async #contractsApiCall(data: Hex): Promise<Hex> {
    const api = this.#runtimeApi('ContractsApi', 'call');
    const bytes = u8aToU8a(data);
    let offset = 0;
    const [origin, dest, , , , input] = api.inputs.map((type) => {
      const value = this.#registry.createType(type, bytes.subarray(offset));
      offset += value.encodedLength;
      return value;
    });
    const outcome = u8aToHex(dest.toU8a()) === u8aToHex(this.#accountId)
      ? await this.#dryRun(toSs58(origin.toU8a()), compactAddLength(input.toU8a(true)))
      : null;
    const weight = { refTime: 1_000_000, proofSize: 10_000 };
    let result: unknown;
    if (outcome === null) result = { Err: 'CannotLookup' };
    else if ('trapped' in outcome) result = { Err: this.#contractsError(outcome.trapped) };
    // Bytes from hex is the raw content (from a Uint8Array it would be read as length-prefixed).
    else result = { Ok: { flags: { bits: outcome.reverted ? 1 : 0 }, data: u8aToHex(outcome.data) } };
    return this.#registry.createType(api.output, { gasConsumed: weight, gasRequired: weight, storageDeposit: { Charge: 0 }, debugMessage: '0x', result, events: null }).toHex();
  }

  /** Executes on a scratch copy of the contract's state, which is dropped afterwards. */
  async #dryRun(caller: string, input: Uint8Array): Promise<ExecOutcome> {
    const { redis, keyPrefix } = this.options;
    const scratchPrefix = `${keyPrefix}:dry-run-${(this.#scratch += 1)}`;
    const source = devChainKey(keyPrefix, 'claim-contract:');
    const keys = await redis.keys(`${source}*`);
    await Promise.all(keys.map((key) => redis.copy(key, devChainKey(scratchPrefix, `claim-contract:${key.slice(source.length)}`), 'REPLACE')));
    try {
      return await this.#execute(this.#engineAt(scratchPrefix), caller, input);
    } finally {
      const copies = await redis.keys(`${devChainKey(scratchPrefix, '')}*`);
      if (copies.length > 0) await redis.del(...copies);
    }
  }

  #submit(hex: Hex, session: RpcSession): string {
    const extrinsic = this.#registry.createType('Extrinsic', hex);
    const { section, method } = extrinsic.method;
    if (section !== 'contracts' || method !== 'call') throw new RpcMethodError(1010, `the local node only includes contracts.call, got ${section}.${method}`);
    const signer = toSs58(extrinsic.signer.toString());
    this.#nonces.set(signer, (this.#nonces.get(signer) ?? 0) + 1);
    const [dest, , , , data] = extrinsic.method.args as unknown as [Enum, Codec, Codec, Codec, Codec];
    // `dest` is a MultiAddress; contracts are addressed by `Id`.
    const destId = dest.type === 'Id' ? dest.value.toU8a() : new Uint8Array();
    const subscription = `watch-${this.included.length + 1}-${Date.now()}`;
    void (async () => {
      const hook = this.beforeNextInclusion;
      this.beforeNextInclusion = null;
      await hook?.();
      const block = this.server.bestBlock + 1;
      this.#executingBlock = block;
      const outcome: ExecOutcome =
        u8aToHex(destId) === u8aToHex(this.#accountId) ? await this.#execute(this.engine, signer, data.toU8a()) : { data: new Uint8Array(), reverted: true, events: [] };
      this.#executingBlock = null;
      this.#blocks.set(block, [hex]);
      this.server.setStorage(storageKey('System', 'Events'), this.#events(outcome));
      this.server.setBestBlock(block);
      const hash = this.server.blockHash(block);
      session.notify('author_extrinsicUpdate', subscription, 'ready');
      session.notify('author_extrinsicUpdate', subscription, { inBlock: hash });
      session.notify('author_extrinsicUpdate', subscription, { finalized: hash });
    })();
    return subscription;
  }

  /** Decodes one message call (`compact length ‖ selector ‖ args`) and answers it with the engine, in the contract's types. */
  async #execute(engine: DevClaimContract, caller: string, input: Uint8Array): Promise<ExecOutcome> {
    const { message, args } = this.abi.decodeMessage(input);
    const returnType = message.returnType;
    if (!returnType) throw new RpcMethodError(-32000, `message ${message.identifier} has no return type`);
    // Every answer is ink!'s `MessageResult<T> = Result<T, LangError>`, hence the outer `Ok`.
    const answer = (value: unknown): Uint8Array => this.abi.registry.createType(returnType.lookupName ?? returnType.type, { Ok: value }).toU8a();
    const json = args.map((arg) => arg.toJSON());
    const num = (codec: Codec): number => Number(codec.toString());
    const big = (codec: Codec): bigint => BigInt(codec.toString());
    const who = { address: caller };
    const ok = (value: unknown, events: ClaimContractEvent[] = []): ExecOutcome => ({ data: answer(value), reverted: false, events });
    const forced = this.forced.get(message.identifier);
    let outcome: ExecOutcome;
    try {
      if (forced === 'ContractTrapped' || forced === 'OutOfGas') outcome = { trapped: forced };
      // ink! reverts the state of a message that answers `Err` (the revert flag) and still returns the answer.
      else if (forced !== undefined) outcome = { data: answer({ Err: forced }), reverted: true, events: [] };
      else {
        switch (message.identifier) {
          case 'get_latest_published_epoch':
            outcome = ok(await engine.latestPublishedEpoch());
            break;
          case 'get_claimed_cumulative_rao':
            outcome = ok(await engine.claimedCumulativeRao(toSs58(args[0].toU8a())));
            break;
          case 'get_epoch_info': {
            // `Result<Epoch, ReadWriteErrorCode>`: an epoch the contract does not hold is `Err(ReadFailed)`.
            const epoch = await engine.epochInfo(num(args[0]));
            outcome = ok(epoch === null ? { Err: 'ReadFailed' } : { Ok: epoch });
            break;
          }
          case 'publish_epoch': {
            const receipt = await engine.publishEpoch({ epoch: num(args[0]), root: args[1].toHex() as HexHash, numOfLeaves: num(args[2]), totalRao: big(args[3]), uri: args[4].toString() }, who);
            outcome = ok({ Ok: null }, receipt.events);
            break;
          }
          case 'claim_single': {
            const data = args[0] as unknown as { epoch: Codec; index: Codec; hotkey: Codec; recipientColdkey: Codec; amount: Codec; proof: Codec[] };
            const receipt = await engine.claimSingle(
              {
                epoch: num(data.epoch),
                index: num(data.index),
                hotkey: toSs58(data.hotkey.toU8a()),
                recipientColdkey: toSs58(data.recipientColdkey.toU8a()),
                amount: big(data.amount),
                proof: data.proof.map((hash) => hash.toHex() as HexHash),
              },
              args[1].toJSON() === true,
              who,
            );
            outcome = ok({ Ok: null }, receipt.events);
            break;
          }
          case 'challenge_epoch':
            outcome = ok({ Ok: null }, (await engine.challengeEpoch(num(args[0]), args[1].toHex() as HexHash, who)).events);
            break;
          case 'resolve_challenge':
            outcome = ok({ Ok: null }, (await engine.resolveChallenge(num(args[0]), args[1].toJSON() === true, toSs58(args[2].toU8a()), who)).events);
            break;
          default:
            throw new RpcMethodError(-32000, `message ${message.identifier} is not served by the local claim contract`);
        }
      }
    } catch (error) {
      if (!(error instanceof ClaimContractError)) throw error;
      outcome = { data: answer({ Err: readWriteErrorOf(error.code) }), reverted: true, events: [] };
    }
    if (engine === this.engine) {
      this.included.push({ block: this.server.bestBlock + 1, signer: caller, message: message.identifier, args: json, reverted: 'trapped' in outcome || outcome.reverted });
    }
    return outcome;
  }

  /**
   * `System::Events` of a block holding one extrinsic: the contract's events (`Contracts::ContractEmitted`
   * with ink!'s topics) and `ExtrinsicSuccess`, or `ExtrinsicFailed` with `ContractReverted`, `ContractTrapped` or `OutOfGas`.
   */
  #events(outcome: ExecOutcome): Uint8Array {
    const dispatchInfo = { weight: { refTime: 1_000_000, proofSize: 10_000 }, class: 'Normal', paysFee: 'Yes' };
    const failure = 'trapped' in outcome ? outcome.trapped : outcome.reverted ? 'ContractReverted' : null;
    const record = (event: Uint8Array, topics: Uint8Array[] = []): Uint8Array => u8aConcat([0x00], scale.u32(0), event, scale.compact(topics.length), ...topics); // phase ApplyExtrinsic(0)
    const records =
      failure !== null
        ? [record(this.#event('System', 'ExtrinsicFailed', [this.#contractsError(failure), dispatchInfo]))]
        : [
            ...('trapped' in outcome ? [] : outcome.events).map((event) => this.#emitted(event)).map(({ data, topics }) => record(this.#event('Contracts', 'ContractEmitted', [this.#accountId, u8aToHex(data)]), topics)),
            record(this.#event('System', 'ExtrinsicSuccess', [dispatchInfo])),
          ];
    return u8aConcat(scale.compact(records.length), ...records);
  }

  /** An event as ink! 5 emits it: every field SCALE-encoded in order; topics = signature topic, then each `#[ink(topic)]` field (≤ 32 bytes padded, else its BLAKE2b-256). */
  #emitted(event: ClaimContractEvent): { data: Uint8Array; topics: Uint8Array[] } {
    const spec = this.abi.events.find((candidate) => candidate.identifier.split('::').at(-1) === event.name); // ink! 5 names events by their path
    if (!spec) throw new RpcMethodError(-32000, `the contract's metadata has no event ${event.name}`);
    const values: Record<string, unknown> = { ...event, amount: event.name === 'Claimed' ? event.amountRao : undefined };
    const encoded = spec.args.map((arg) => ({ indexed: arg.indexed, bytes: this.abi.registry.createType(arg.type.lookupName ?? arg.type.type, values[arg.name]).toU8a() }));
    const topic = (bytes: Uint8Array): Uint8Array => (bytes.length <= 32 ? u8aConcat(bytes, new Uint8Array(32 - bytes.length)) : blake2AsU8a(bytes, 256));
    const signature = spec.signatureTopic ? [u8aToU8a(spec.signatureTopic)] : [];
    return { data: u8aConcat(...encoded.map((arg) => arg.bytes)), topics: [...signature, ...encoded.filter((arg) => arg.indexed).map((arg) => topic(arg.bytes))] };
  }

  /** A `DispatchError::Module` of pallet-contracts. */
  #contractsError(name: 'ContractReverted' | 'ContractTrapped' | 'OutOfGas'): { Module: { index: number; error: Uint8Array } } {
    const contracts = this.#pallet('Contracts');
    return { Module: { index: contracts.index, error: u8aConcat([this.#errorIndex(contracts, name)], new Uint8Array(3)) } };
  }

  #pallet(name: string): PalletInfo {
    const pallet = this.#registry.metadata.pallets.find((candidate) => candidate.name.eq(name));
    if (!pallet) throw new RpcMethodError(-32000, `runtime has no pallet ${name}`);
    return { index: pallet.index.toNumber(), pallet };
  }

  #variants(typeId: Codec) {
    return this.#registry.lookup.getSiType(typeId as never).def.asVariant.variants;
  }

  #errorIndex(contracts: PalletInfo, name: string): number {
    const variant = this.#variants(contracts.pallet.errors.unwrap().type).find((candidate) => candidate.name.eq(name));
    if (!variant) throw new RpcMethodError(-32000, `Contracts has no error ${name}`);
    return variant.index.toNumber();
  }

  #event(palletName: string, name: string, values: unknown[]): Uint8Array {
    const { index, pallet } = this.#pallet(palletName);
    const variant = this.#variants(pallet.events.unwrap().type).find((candidate) => candidate.name.eq(name));
    if (!variant) throw new RpcMethodError(-32000, `${palletName} has no event ${name}`);
    const fields = variant.fields.map((field, i) => this.#registry.createType(this.#registry.createLookupType(field.type), values[i]).toU8a());
    return u8aConcat([index, variant.index.toNumber()], ...fields);
  }

  #runtimeApi(apiName: string, methodName: string): { inputs: string[]; output: string } {
    const api = this.#registry.metadata.apis.find((candidate) => candidate.name.eq(apiName));
    const method = api?.methods.find((candidate) => candidate.name.eq(methodName));
    if (!method) throw new RpcMethodError(-32000, `runtime has no ${apiName}_${methodName}`);
    return { inputs: method.inputs.map((input) => this.#registry.createLookupType(input.type)), output: this.#registry.createLookupType(method.output) };
  }
}
