import { readFileSync } from 'node:fs';
import { Metadata, TypeRegistry } from '@polkadot/types';
import type { Extrinsic } from '@polkadot/types/interfaces';
import { u8aConcat, u8aToHex } from '@polkadot/util';
import { blake2AsHex, encodeAddress } from '@polkadot/util-crypto';
import { RpcMethodError, SUBTENSOR_DEVNET_METADATA_PATH, type LocalRpcServer } from './local-rpc-server';
import { scale, storageKey } from './storage-keys';

type Hex = `0x${string}`;

/** An extrinsic the local node received, decoded with the runtime metadata. */
export interface ReceivedExtrinsic {
  hex: Hex;
  hash: Hex;
  /** `[pallet index, call index]` as encoded in the extrinsic. */
  callIndex: [number, number];
  /** e.g. `subtensorModule` / `setWeights` */
  section: string;
  method: string;
  /** The call's arguments by (camelCase) name, as JSON (`{ netuid, dests, weights, versionKey }`). */
  args: Record<string, unknown>;
  /** SS58 (prefix 42) of the signer. */
  signer: string;
  isSigned: boolean;
  nonce: number;
  /** The connection it arrived on (`RpcSession.client`): tells apart processes that sign with one key. */
  client: number;
}

/** What the node does with a received extrinsic. */
export type ExtrinsicVerdict =
  | { kind: 'include' }
  /** In a block, with `System.ExtrinsicFailed` carrying this module error (e.g. `SubtensorModule`, `SettingWeightsTooFast`). */
  | { kind: 'dispatch_error'; pallet: string; error: string }
  /** The pool refuses it at submission (JSON-RPC error 1010, as a node answers an invalid transaction). */
  | { kind: 'refuse'; message: string }
  /** Reported `invalid` or `dropped` through the watch subscription. */
  | { kind: 'invalid' }
  | { kind: 'dropped' }
  /** Accepted into the pool (`ready`) and never included. */
  | { kind: 'never_included' };

/**
 * Extrinsic submission for `LocalRpcServer`: `author_submitAndWatchExtrinsic` decodes what it receives
 * with the real runtime metadata, asks `decide` what happens, and answers like a node: `ready`, then
 * `inBlock` in a new best block whose body holds the extrinsic and whose `System.Events` say
 * `ExtrinsicSuccess` or `ExtrinsicFailed`. Also serves `chain_getBlock` for those blocks.
 */
export class LocalExtrinsicPool {
  readonly received: ReceivedExtrinsic[] = [];
  /** The next verdicts, used in order; then `fallback`. */
  readonly verdicts: ExtrinsicVerdict[] = [];
  fallback: ExtrinsicVerdict = { kind: 'include' };
  /** Called after an extrinsic is included successfully, with its block (e.g. to update `LastUpdate`). */
  onIncluded: ((extrinsic: ReceivedExtrinsic, block: number) => void) | null = null;
  readonly #registry = new TypeRegistry();
  readonly #bodies = new Map<number, Hex[]>();
  #nextSubscription = 1;

  constructor(
    private readonly node: LocalRpcServer,
    metadataPath = SUBTENSOR_DEVNET_METADATA_PATH,
  ) {
    this.#registry.setMetadata(new Metadata(this.#registry, new Uint8Array(readFileSync(metadataPath))));
    node.handle('author_submitAndWatchExtrinsic', ([hex], session) => {
      const extrinsic = { ...this.#decode(String(hex)), client: session.client };
      this.received.push(extrinsic);
      const verdict = this.verdicts.shift() ?? this.fallback;
      if (verdict.kind === 'refuse') throw new RpcMethodError(1010, `Invalid Transaction: ${verdict.message}`);
      const id = `w${this.#nextSubscription++}`;
      session.notify('author_extrinsicUpdate', id, 'ready');
      switch (verdict.kind) {
        case 'invalid':
        case 'dropped':
          session.notify('author_extrinsicUpdate', id, verdict.kind);
          break;
        case 'never_included':
          break;
        case 'include':
        case 'dispatch_error': {
          const block = this.#include(extrinsic, verdict);
          session.notify('author_extrinsicUpdate', id, { inBlock: node.blockHash(block) });
          break;
        }
      }
      return id;
    });
    node.handle('author_unwatchExtrinsic', () => true);
    node.handle('chain_getBlock', ([hash]) => {
      const block = hash === undefined || hash === null ? node.bestBlock : node.blockNumberOf(hash);
      if (block === null) return null;
      return { block: { header: node.header(block), extrinsics: this.#bodies.get(block) ?? [] }, justifications: null };
    });
  }

  #decode(hex: string): Omit<ReceivedExtrinsic, 'client'> {
    const extrinsic = this.#registry.createType('Extrinsic', hex) as Extrinsic;
    const { method } = extrinsic;
    const args: Record<string, unknown> = {};
    method.meta.args.forEach((arg, i) => (args[arg.name.toString()] = method.args[i].toJSON()));
    return {
      hex: hex as Hex,
      hash: blake2AsHex(extrinsic.toU8a(), 256),
      callIndex: [method.callIndex[0], method.callIndex[1]],
      section: method.section,
      method: method.method,
      args,
      signer: encodeAddress(extrinsic.signer.toU8a().slice(-32), 42),
      isSigned: extrinsic.isSigned,
      nonce: extrinsic.nonce.toNumber(),
    };
  }

  /** A new best block holding only this extrinsic, with the events its verdict calls for. */
  #include(extrinsic: ReceivedExtrinsic, verdict: Extract<ExtrinsicVerdict, { kind: 'include' | 'dispatch_error' }>): number {
    const block = this.node.bestBlock + 1;
    this.#bodies.set(block, [extrinsic.hex]);
    const dispatchInfo = { weight: { refTime: 0, proofSize: 0 }, class: 'Normal', paysFee: 'Yes' };
    const event =
      verdict.kind === 'include'
        ? this.#event('System', 'ExtrinsicSuccess', [dispatchInfo])
        : this.#event('System', 'ExtrinsicFailed', [{ Module: this.#moduleError(verdict.pallet, verdict.error) }, dispatchInfo]);
    const phase = this.#registry.createType('FrameSystemPhase', { ApplyExtrinsic: 0 }).toU8a();
    // Vec<EventRecord> with one record: phase, event, no topics.
    const events = u8aConcat(scale.compact(1), phase, event, scale.compact(0));
    // The local node keeps one state: System.Events always holds the newest block's events.
    this.node.setStorage(storageKey('System', 'Events'), events);
    this.node.setBestBlock(block);
    if (verdict.kind === 'include') this.onIncluded?.(extrinsic, block);
    return block;
  }

  /** A runtime event: pallet index, variant index, then each field SCALE-encoded by its metadata type. */
  #event(palletName: string, eventName: string, fields: unknown[]): Uint8Array {
    const pallet = this.#palletMeta(palletName);
    if (pallet.events.isNone) throw new TypeError(`the runtime has no events for pallet ${palletName}`);
    const variant = this.#registry.lookup.getSiType(pallet.events.unwrap().type).def.asVariant.variants.find((v) => v.name.eq(eventName));
    if (!variant) throw new TypeError(`${palletName} has no event ${eventName}`);
    const encoded = variant.fields.map((field, i) => this.#registry.createType(this.#registry.createLookupType(field.type), fields[i]).toU8a());
    return u8aConcat(new Uint8Array([pallet.index.toNumber(), variant.index.toNumber()]), ...encoded);
  }

  #palletMeta(palletName: string) {
    const pallet = this.#registry.metadata.pallets.find((p) => p.name.eq(palletName));
    if (!pallet) throw new TypeError(`the runtime has no pallet ${palletName}`);
    return pallet;
  }

  #moduleError(palletName: string, errorName: string): { index: number; error: Hex } {
    const pallet = this.#palletMeta(palletName);
    if (pallet.errors.isNone) throw new TypeError(`the runtime has no errors for pallet ${palletName}`);
    const variants = this.#registry.lookup.getSiType(pallet.errors.unwrap().type).def.asVariant.variants;
    const variant = variants.find((v) => v.name.eq(errorName));
    if (!variant) throw new TypeError(`${palletName} has no error ${errorName}`);
    return { index: pallet.index.toNumber(), error: u8aToHex(new Uint8Array([variant.index.toNumber(), 0, 0, 0])) };
  }
}
