import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { u8aConcat } from '@polkadot/util';
import { encodeAddress } from '@polkadot/util-crypto';
import { inkMetadata } from '../testing/ink-metadata';
import { LocalRpcServer } from '../testing/local-rpc-server';
import { hasher, scale, storageKey } from '../testing/storage-keys';
import { unusedLocalPort } from '../testing/unused-port';
import { PolkadotClaimContract } from './polkadot-claim-contract';
import { PolkadotConnection } from './polkadot-connection';

const contractId = (fill: number): Uint8Array => new Uint8Array(32).fill(fill);
const contractAddress = (fill: number): string => encodeAddress(contractId(fill), 42);

// System.Account: Blake2_128Concat(AccountId32) → AccountInfo with Subtensor's u64 balances;
// Contracts.ContractInfoOf: Twox64Concat(AccountId32) → ContractInfo (as the metadata declares).
const accountKey = (fill: number) => storageKey('System', 'Account', hasher.blake2_128Concat(contractId(fill)));
const contractInfoKey = (fill: number) => storageKey('Contracts', 'ContractInfoOf', hasher.twox64Concat(contractId(fill)));

function accountInfo(free: bigint, reserved: bigint): Uint8Array {
  const counters = [0, 1, 1, 0].map((n) => scale.u32(n)); // nonce, consumers, providers, sufficients
  return u8aConcat(...counters, scale.u64(free), scale.u64(reserved), scale.u64(0n), scale.u128(1n << 127n));
}

function contractInfo(): Uint8Array {
  return u8aConcat(
    scale.bytes(new Uint8Array([1, 2, 3, 4])), // trie_id
    new Uint8Array(32).fill(0xab), // code_hash
    scale.u32(120), // storage_bytes
    scale.u32(3), // storage_items
    scale.u64(1_000n), // storage_byte_deposit
    scale.u64(300n), // storage_item_deposit
    scale.u64(5_000n), // storage_base_deposit
    scale.compact(0), // delegate_dependencies: empty map
  );
}

describe('PolkadotClaimContract.status against a local node serving the real Subtensor metadata', () => {
  let node: LocalRpcServer;
  let dir: string;
  let completeMetadata: string;
  const connections: PolkadotConnection[] = [];

  const claimContract = (address: string | null, metadataPath: string | null, url = node.url, timeoutMs = 10_000) => {
    const connection = new PolkadotConnection(url, timeoutMs);
    connections.push(connection);
    return new PolkadotClaimContract(connection, address, metadataPath);
  };

  beforeAll(async () => {
    node = await LocalRpcServer.start({ bestBlock: 777 });
    node.setStorage(contractInfoKey(1), contractInfo());
    node.setStorage(accountKey(1), accountInfo(123_456_789_012n, 5_000n));
    dir = mkdtempSync(join(tmpdir(), 'rcs-claim-contract-'));
    completeMetadata = join(dir, 'claims.json');
    writeFileSync(completeMetadata, JSON.stringify(inkMetadata(['publish_epoch', 'claim_single', 'challenge_epoch', 'veto'])));
  });

  afterAll(async () => {
    await Promise.all(connections.map((connection) => connection.close()));
    await node.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reports a deployed contract with its balances and complete metadata', async () => {
    const status = await claimContract(contractAddress(1), completeMetadata).status();

    expect(status).toEqual({
      configured: true,
      ws_url: node.url,
      contract: contractAddress(1),
      metadata_path: completeMetadata,
      metadata_exists: true,
      metadata_messages: ['publish_epoch', 'claim_single', 'challenge_epoch', 'veto'],
      required_messages_present: true,
      chain_reachable: true,
      latest_block: 777,
      contract_info_present: true,
      contract_account_free: 123_456_789_012,
      contract_account_reserved: 5_000,
      error: null,
    });
  });

  it('reports an address without a contract: no contract info, empty account', async () => {
    const status = await claimContract(contractAddress(2), completeMetadata).status();

    expect(status).toMatchObject({
      chain_reachable: true,
      contract_info_present: false,
      contract_account_free: 0,
      contract_account_reserved: 0,
      error: null,
    });
  });

  it('reports metadata that lacks a required message', async () => {
    const path = join(dir, 'incomplete.json');
    writeFileSync(path, JSON.stringify(inkMetadata(['publish_epoch', 'claim_single'])));

    const status = await claimContract(contractAddress(1), path).status();

    expect(status).toMatchObject({
      configured: true,
      metadata_exists: true,
      metadata_messages: ['publish_epoch', 'claim_single'],
      required_messages_present: false,
      contract_info_present: true,
      error: null,
    });
  });

  it('reports a metadata path that does not exist', async () => {
    const path = join(dir, 'missing.json');

    const status = await claimContract(contractAddress(1), path).status();

    expect(status).toMatchObject({ configured: true, metadata_exists: false, metadata_messages: [], required_messages_present: false });
    expect(status.chain_reachable).toBe(true);
    expect(status.error).toContain('missing.json');
  });

  it('still reports the chain when the contract is not configured', async () => {
    const status = await claimContract(null, null).status();

    expect(status).toEqual({
      configured: false,
      ws_url: node.url,
      contract: '',
      metadata_path: '',
      metadata_exists: false,
      metadata_messages: [],
      required_messages_present: false,
      chain_reachable: true,
      latest_block: 777,
      contract_info_present: null,
      contract_account_free: null,
      contract_account_reserved: null,
      error: 'claim contract not configured: CLAIM_CONTRACT_ADDRESS, CLAIM_CONTRACT_METADATA_PATH unset',
    });
  });

  it('reports an unreachable chain instead of throwing, within the timeout', async () => {
    const port = await unusedLocalPort();
    const started = Date.now();

    const status = await claimContract(contractAddress(1), completeMetadata, `ws://127.0.0.1:${port}`, 500).status();

    expect(Date.now() - started).toBeLessThan(1_500); // the 500 ms timeout plus scheduling slack
    expect(status).toMatchObject({
      configured: true,
      metadata_exists: true,
      required_messages_present: true,
      chain_reachable: false,
      latest_block: null,
      contract_info_present: null,
      contract_account_free: null,
      contract_account_reserved: null,
    });
    expect(status.error).toMatch(/^cannot connect to ws:\/\/127\.0\.0\.1:\d+: connect ECONNREFUSED/);
  });
});
