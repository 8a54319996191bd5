import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import { Metadata, TypeRegistry } from '@polkadot/types';
import { hexToU8a, u8aConcat, u8aToHex } from '@polkadot/util';
import { WebSocketServer, type WebSocket } from 'ws';
import { scale } from './storage-keys';

/** Real Subtensor runtime metadata (public data) kept beside the repository, never copied into it. */
export const SUBTENSOR_DEVNET_METADATA_PATH = resolve(__dirname, '../../../../../shared/chain/subtensor-devnet-metadata.scale');

type Hex = `0x${string}`;

/** Lets a handler push subscription notifications to the client that called it. */
export interface RpcSession {
  notify(method: string, subscription: string, result: unknown): void;
  /** Which connection called (1, 2, … in the order clients connected). */
  readonly client: number;
}

/** Answers one RPC call; may be async. Throw `RpcMethodError` to answer a JSON-RPC error. */
export type RpcHandler = (params: unknown[], session: RpcSession) => unknown;

/** Answers one runtime API call of `state_call` (SCALE-encoded arguments in, SCALE-encoded result out). */
export type RuntimeCallHandler = (data: Hex) => Hex | Promise<Hex>;

export interface LocalRpcServerOptions {
  /** SCALE runtime metadata answered by `state_getMetadata`; the Subtensor devnet metadata by default. */
  metadataPath?: string;
  bestBlock?: number;
  /** 0 (an ephemeral port) by default; a fixed port lets a test restart "the same node". */
  port?: number;
}

/** A JSON-RPC error answered to the client, e.g. for an unknown method. */
export class RpcMethodError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'RpcMethodError';
  }
}

interface RpcRequest {
  id: number | string;
  method: string;
  params?: unknown[];
}

const ZERO_HASH: Hex = `0x${'00'.repeat(32)}`;
const BLOCK_HASH_FILLER = 'b1'.repeat(28); // blockNumberOf() matches this filler

/**
 * A Substrate node as `@polkadot/api` sees it, on 127.0.0.1 and an ephemeral port: it answers the
 * RPCs `ApiPromise` needs to start from real runtime metadata, and serves storage that the test
 * seeds by key. Anything else is a JSON-RPC "method not found" unless a test adds it with `handle()`.
 */
export class LocalRpcServer {
  /** `ws://127.0.0.1:<port>` */
  readonly url: string;
  /** Every method called, in arrival order. */
  readonly calls: string[] = [];
  readonly #storage = new Map<string, Hex>();
  readonly #handlers = new Map<string, RpcHandler>();
  readonly #runtimeCalls = new Map<string, RuntimeCallHandler>();
  readonly #metadata: Uint8Array;
  readonly #runtimeVersion: unknown;
  readonly #metadataVersion: number;
  #bestBlock: number;
  #nextSubscription = 1;
  readonly #clientIds = new WeakMap<WebSocket, number>();
  #nextClient = 1;

  private constructor(
    private readonly server: WebSocketServer,
    metadata: Uint8Array,
    bestBlock: number,
  ) {
    this.url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
    this.#metadata = metadata;
    this.#metadataVersion = metadata[4];
    this.#runtimeVersion = runtimeVersionOf(metadata);
    this.#bestBlock = bestBlock;
    this.#registerDefaults();
    server.on('connection', (socket) => {
      this.#clientIds.set(socket, this.#nextClient++);
      socket.on('message', (data) => void this.#onMessage(socket, String(data)));
    });
  }

  static async start(options: LocalRpcServerOptions = {}): Promise<LocalRpcServer> {
    const metadata = readFileSync(options.metadataPath ?? SUBTENSOR_DEVNET_METADATA_PATH);
    const server = new WebSocketServer({ host: '127.0.0.1', port: options.port ?? 0 });
    await new Promise<void>((resolveListening, reject) => {
      server.once('listening', resolveListening);
      server.once('error', reject);
    });
    return new LocalRpcServer(server, new Uint8Array(metadata), options.bestBlock ?? 1);
  }

  get bestBlock(): number {
    return this.#bestBlock;
  }

  setBestBlock(block: number): void {
    this.#bestBlock = block;
  }

  /** Sets (or with null removes) the raw SCALE value stored under a full storage key. */
  setStorage(key: Hex | Uint8Array, value: Hex | Uint8Array | null): void {
    const hexKey = (typeof key === 'string' ? key : u8aToHex(key)).toLowerCase();
    if (value === null) this.#storage.delete(hexKey);
    else this.#storage.set(hexKey, (typeof value === 'string' ? value : u8aToHex(value)).toLowerCase() as Hex);
  }

  /** The raw value stored under a full storage key, or null. */
  storageAt(key: Hex | Uint8Array): Uint8Array | null {
    const value = this.#storage.get((typeof key === 'string' ? key : u8aToHex(key)).toLowerCase());
    return value === undefined ? null : hexToU8a(value);
  }

  get clientCount(): number {
    return this.server.clients.size;
  }

  /** Resolves once no client is connected (at once when none is). */
  async allClientsClosed(): Promise<void> {
    while (this.server.clients.size > 0) {
      await Promise.all([...this.server.clients].map((client) => new Promise((closed) => client.once('close', closed))));
    }
  }

  /** Adds or replaces the answer to one RPC method. */
  handle(method: string, handler: RpcHandler): void {
    this.#handlers.set(method, handler);
  }

  /** Adds or replaces the answer to one runtime API call, e.g. `ContractsApi_call`. */
  handleRuntimeCall(method: string, handler: RuntimeCallHandler): void {
    this.#runtimeCalls.set(method, handler);
  }

  async close(): Promise<void> {
    for (const client of this.server.clients) client.terminate();
    await new Promise<void>((resolveClosed, reject) => this.server.close((error) => (error ? reject(error) : resolveClosed())));
  }

  /** Block hashes carry their number, so any hash maps back to its block without a lookup table. */
  blockHash(block: number): Hex {
    return `0x${block.toString(16).padStart(8, '0')}${BLOCK_HASH_FILLER}`;
  }

  blockNumberOf(hash: unknown): number | null {
    const match = /^0x([0-9a-f]{8})(?:b1){28}$/.exec(String(hash).toLowerCase());
    const block = match ? parseInt(match[1], 16) : null;
    return block !== null && block <= this.#bestBlock ? block : null;
  }

  header(block: number): Record<string, unknown> {
    return {
      parentHash: block === 0 ? ZERO_HASH : this.blockHash(block - 1),
      number: `0x${block.toString(16)}`,
      stateRoot: ZERO_HASH,
      extrinsicsRoot: ZERO_HASH,
      digest: { logs: [] },
    };
  }

  async #onMessage(socket: WebSocket, text: string): Promise<void> {
    let request: RpcRequest;
    try {
      request = JSON.parse(text) as RpcRequest;
    } catch {
      socket.send(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }));
      return;
    }
    this.calls.push(request.method);
    const queued: string[] = [];
    let answered = false;
    const session: RpcSession = {
      client: this.#clientIds.get(socket) ?? 0,
      notify: (method, subscription, result) => {
        const message = JSON.stringify({ jsonrpc: '2.0', method, params: { subscription, result } });
        if (answered) socket.send(message);
        else queued.push(message);
      },
    };
    const handler = this.#handlers.get(request.method);
    let reply: Record<string, unknown>;
    try {
      if (!handler) throw new RpcMethodError(-32601, `Method not found: ${request.method}`);
      reply = { result: (await handler(request.params ?? [], session)) ?? null };
    } catch (error) {
      const { code, message } = error instanceof RpcMethodError ? error : { code: -32603, message: String(error) };
      reply = { error: { code, message } };
    }
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: request.id, ...reply }));
    answered = true;
    for (const message of queued) socket.send(message);
  }

  /** A subscription that answers its id, then one notification with the current value. */
  #subscription(notification: string, current: (params: unknown[]) => unknown): RpcHandler {
    return (params, session) => {
      const id = String(this.#nextSubscription++);
      session.notify(notification, id, current(params));
      return id;
    };
  }

  #registerDefaults(): void {
    const value = (key: unknown): Hex | null => this.#storage.get(String(key).toLowerCase()) ?? null;
    const best = (): Hex => this.blockHash(this.#bestBlock);
    const changeSet = (keys: unknown) => ({
      block: best(),
      changes: (keys as unknown[]).map((key) => [String(key).toLowerCase(), value(key)]),
    });
    const answers: Record<string, RpcHandler> = {
      rpc_methods: () => ({ version: 1, methods: [...this.#handlers.keys()].sort() }),
      system_chain: () => 'Local Subtensor',
      system_name: () => 'rcs-local-rpc-server',
      system_version: () => '1.0.0',
      system_properties: () => ({ ss58Format: 42, tokenDecimals: 9, tokenSymbol: 'TAO' }),
      system_health: () => ({ peers: 0, isSyncing: false, shouldHavePeers: false }),
      chain_getBlockHash: ([block]) => {
        const number = block === undefined || block === null ? this.#bestBlock : Number(block);
        return number <= this.#bestBlock ? this.blockHash(number) : null;
      },
      chain_getFinalizedHead: best,
      chain_getHeader: ([hash]) => {
        const block = hash === undefined || hash === null ? this.#bestBlock : this.blockNumberOf(hash);
        return block === null ? null : this.header(block);
      },
      chain_subscribeNewHeads: this.#subscription('chain_newHead', () => this.header(this.#bestBlock)),
      chain_unsubscribeNewHeads: () => true,
      chain_subscribeFinalizedHeads: this.#subscription('chain_finalizedHead', () => this.header(this.#bestBlock)),
      chain_unsubscribeFinalizedHeads: () => true,
      state_getRuntimeVersion: () => this.#runtimeVersion,
      state_subscribeRuntimeVersion: this.#subscription('state_runtimeVersion', () => this.#runtimeVersion),
      state_unsubscribeRuntimeVersion: () => true,
      state_getMetadata: () => u8aToHex(this.#metadata),
      state_call: ([method, data]) => this.#runtimeCall(String(method), String(data)),
      state_getStorage: ([key]) => value(key),
      state_queryStorageAt: ([keys]) => [changeSet(keys)],
      state_subscribeStorage: this.#subscription('state_storage', ([keys]) => changeSet(keys)),
      state_unsubscribeStorage: () => true,
      state_getKeysPaged: ([prefix, count, startKey]) => {
        const head = String(prefix).toLowerCase();
        const after = typeof startKey === 'string' ? startKey.toLowerCase() : '';
        return [...this.#storage.keys()]
          .filter((key) => key.startsWith(head) && key > after)
          .sort()
          .slice(0, Number(count));
      },
    };
    for (const [method, handler] of Object.entries(answers)) this.#handlers.set(method, handler);
  }

  /** The two runtime calls `ApiPromise` makes to fetch metadata through the Metadata runtime API. */
  #runtimeCall(method: string, data: string): Hex | Promise<Hex> {
    const handler = this.#runtimeCalls.get(method);
    if (handler) return handler(data as Hex);
    switch (method) {
      case 'Metadata_metadata_versions':
        return u8aToHex(u8aConcat(scale.compact(1), scale.u32(this.#metadataVersion)));
      case 'Metadata_metadata_at_version':
        // Option<OpaqueMetadata>: Some(bytes) for the version we hold, None for any other.
        return data === u8aToHex(scale.u32(this.#metadataVersion)) ? u8aToHex(u8aConcat([1], scale.bytes(this.#metadata))) : '0x00';
      default:
        throw new RpcMethodError(-32000, `runtime call not served by the local RPC server: ${method}`);
    }
  }
}

/** The runtime's own `System::Version` constant, as `state_getRuntimeVersion` answers it. */
function runtimeVersionOf(metadataBytes: Uint8Array): unknown {
  const registry = new TypeRegistry();
  const metadata = new Metadata(registry, metadataBytes);
  const system = metadata.asLatest.pallets.find((pallet) => pallet.name.eq('System'));
  const version = system?.constants.find((constant) => constant.name.eq('Version'));
  if (!version) throw new TypeError('runtime metadata has no System::Version constant');
  return registry.createType('RuntimeVersion', version.value).toJSON();
}
