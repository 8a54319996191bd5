// Test support for chain adapters (offline JSON-RPC node, storage keys, ink! metadata); never imported by production code.
export * from './local-rpc-server';
export * from './local-extrinsics';
export * from './storage-keys';
export * from './ink-metadata';
export * from './merklepool-metadata-files';
export * from './local-claim-contract';
export * from './unused-port';
export * from './claim-contract-calls';
