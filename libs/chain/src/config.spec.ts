import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeAddress } from '@polkadot/util-crypto';
import { thrownBy } from '@rcs/testing';
import { chainConfigFromEnv } from './config';
import { ChainConfigError } from './errors';

const address = (fill: number): string => encodeAddress(new Uint8Array(32).fill(fill), 42);

const problemsOf = (env: NodeJS.ProcessEnv): string[] => thrownBy(ChainConfigError, () => chainConfigFromEnv(env))?.problems ?? [];

describe('chainConfigFromEnv', () => {
  it('reads a polkadot configuration', () => {
    const config = chainConfigFromEnv({
      CHAIN: 'polkadot',
      CHAIN_WS_URL: 'wss://localhost:9944',
      NETUID: '94',
      CLAIM_CONTRACT_ADDRESS: address(1),
      CLAIM_CONTRACT_METADATA_PATH: 'contracts/claims.json',
      CHAIN_TIMEOUT_MS: '2500',
    });

    expect(config).toEqual({
      chain: 'polkadot',
      wsUrl: 'wss://localhost:9944',
      netuid: 94,
      claimContractAddress: address(1),
      claimContractMetadataPath: 'contracts/claims.json',
      devChainSeed: { subnets: new Map() },
      devBlockTimeMs: 12_000,
      timeoutMs: 2_500,
      devStore: { redisUrl: 'redis://127.0.0.1:6379', keyPrefix: 'rcs' },
      devClaimChallengeBlocks: 0,
    });
  });

  it('defaults CHAIN to polkadot and the timeout to 10 s; empty values count as unset', () => {
    const config = chainConfigFromEnv({ CHAIN_WS_URL: 'ws://127.0.0.1:9944', NETUID: '1', CLAIM_CONTRACT_ADDRESS: '', CHAIN_TIMEOUT_MS: ' ' });

    expect(config).toMatchObject({ chain: 'polkadot', timeoutMs: 10_000, claimContractAddress: null, claimContractMetadataPath: null });
  });

  it('takes app defaults for unset variables, the environment winning', () => {
    expect(chainConfigFromEnv({}, { CHAIN: 'dev', NETUID: '2' })).toMatchObject({ chain: 'dev', netuid: 2, wsUrl: null });
    expect(chainConfigFromEnv({ NETUID: '5' }, { CHAIN: 'dev', NETUID: '2' }).netuid).toBe(5);
  });

  it('reads the dev seed from inline JSON or from a file, and the dev block time', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rcs-chain-config-'));
    const seed = { subnets: { '2': [{ hotkey: address(3), stake: '9', uid: 0, owner: address(4) }] } };
    const path = join(dir, 'seed.json');
    writeFileSync(path, JSON.stringify(seed));
    const expected = new Map([[2, [{ hotkey: address(3), stake: 9n, uid: 0, owner: address(4) }]]]);

    try {
      const inline = chainConfigFromEnv({ CHAIN: 'dev', NETUID: '2', DEV_CHAIN_SEED: JSON.stringify(seed), DEV_CHAIN_BLOCK_TIME_MS: '1000' });
      expect(inline.devChainSeed.subnets).toEqual(expected);
      expect(inline.devBlockTimeMs).toBe(1_000);
      expect(chainConfigFromEnv({ CHAIN: 'dev', NETUID: '2', DEV_CHAIN_SEED: path }).devChainSeed.subnets).toEqual(expected);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lists every problem of a polkadot configuration', () => {
    expect(problemsOf({ CHAIN: 'polkadot', NETUID: '-1', CLAIM_CONTRACT_ADDRESS: 'nope', CHAIN_TIMEOUT_MS: '0' })).toEqual([
      'NETUID must be an integer 0..65535, got "-1"',
      'CHAIN_TIMEOUT_MS must be an integer 1..600000, got "0"',
      'CHAIN_WS_URL is required when CHAIN=polkadot',
      'CLAIM_CONTRACT_ADDRESS must be an SS58 address, got "nope"',
    ]);
    expect(problemsOf({ CHAIN_WS_URL: 'http://127.0.0.1:9944', NETUID: '1' })).toEqual([
      'CHAIN_WS_URL must be a ws:// or wss:// URL, got "http://127.0.0.1:9944"',
    ]);
  });

  it('refuses an unknown chain, a missing netuid and a bad dev seed', () => {
    expect(problemsOf({ CHAIN: 'mainnet' })).toEqual(['CHAIN must be one of polkadot, dev, got "mainnet"', 'NETUID is required']);
    expect(problemsOf({ CHAIN: 'dev', NETUID: '1', DEV_CHAIN_SEED: '{"subnets": [' })).toEqual([
      expect.stringMatching(/^DEV_CHAIN_SEED is not valid JSON/),
    ]);
    expect(problemsOf({ CHAIN: 'dev', NETUID: '1', DEV_CHAIN_SEED: '/nonexistent/seed.json' })).toEqual([
      'DEV_CHAIN_SEED is neither JSON nor an existing file: /nonexistent/seed.json',
    ]);
    expect(problemsOf({ CHAIN: 'dev', NETUID: '1', DEV_CHAIN_SEED: '{"subnets": {"1": [{"hotkey": "x", "stake": "1"}]}}' })).toEqual([
      'DEV_CHAIN_SEED subnets.1[0].hotkey: must be an SS58 address',
    ]);
    expect(problemsOf({ CHAIN: 'dev', NETUID: '1', DEV_CHAIN_SEED: `{"subnets": {"1": [{"hotkey": "${address(1)}", "stake": "1", "owner": "x"}]}}` })).toEqual([
      'DEV_CHAIN_SEED subnets.1[0].owner: must be an SS58 address (the coldkey), or omitted for none',
    ]);
  });
});
