import { encodeAddress } from '@polkadot/util-crypto';
import { thrownBy } from '@rcs/testing';
import { ChainConfigError } from '../errors';
import { parseDevChainSeed } from './dev-chain-seed';

const hotkey = (fill: number, prefix = 42): string => encodeAddress(new Uint8Array(32).fill(fill), prefix);

const problemsOf = (value: unknown): string[] => thrownBy(ChainConfigError, () => parseDevChainSeed(value))?.problems ?? [];

describe('parseDevChainSeed', () => {
  it('parses subnets, normalising hotkeys and owners to prefix 42 and defaulting an omitted uid or owner to null', () => {
    const seed = parseDevChainSeed({
      subnets: {
        '94': [
          { hotkey: hotkey(1, 0), stake: '123456789012345678901', uid: 0, owner: hotkey(11, 0) },
          { hotkey: hotkey(2), stake: '7' },
          { hotkey: hotkey(3), stake: '0', uid: null, owner: null },
        ],
      },
    });

    expect(seed.subnets).toEqual(
      new Map([
        [
          94,
          [
            { hotkey: hotkey(1), stake: 123_456_789_012_345_678_901n, uid: 0, owner: hotkey(11) },
            { hotkey: hotkey(2), stake: 7n, uid: null, owner: null },
            { hotkey: hotkey(3), stake: 0n, uid: null, owner: null },
          ],
        ],
      ]),
    );
  });

  it('lets one owner hold several hotkeys, and a hotkey repeat its owner in another subnet', () => {
    const seed = parseDevChainSeed({
      subnets: {
        '1': [
          { hotkey: hotkey(1), stake: '1', owner: hotkey(10) },
          { hotkey: hotkey(2), stake: '1', owner: hotkey(10, 0) },
        ],
        '2': [
          { hotkey: hotkey(1, 0), stake: '1', owner: hotkey(10, 2) },
          { hotkey: hotkey(2), stake: '1' },
        ],
      },
    });

    expect([...seed.subnets.values()].flat().map(({ owner }) => owner)).toEqual([hotkey(10), hotkey(10), hotkey(10), null]);
  });

  it('refuses an owner that is not an SS58 address, or the all-zero account', () => {
    expect(
      problemsOf({
        subnets: {
          '1': [
            { hotkey: hotkey(1), stake: '1', owner: 'nope' },
            { hotkey: hotkey(2), stake: '1', owner: 7 },
            { hotkey: hotkey(3), stake: '1', owner: hotkey(0) },
          ],
        },
      }),
    ).toEqual([
      'DEV_CHAIN_SEED subnets.1[0].owner: must be an SS58 address (the coldkey), or omitted for none',
      'DEV_CHAIN_SEED subnets.1[1].owner: must be an SS58 address (the coldkey), or omitted for none',
      'DEV_CHAIN_SEED subnets.1[2].owner: the all-zero account is how the chain says "no owner"; omit owner instead',
    ]);
  });

  it('refuses a hotkey given two different owners: Owner is one map for the whole chain', () => {
    expect(
      problemsOf({
        subnets: {
          '1': [{ hotkey: hotkey(1), stake: '1', owner: hotkey(10) }],
          '2': [{ hotkey: hotkey(1, 0), stake: '1', owner: hotkey(11) }],
        },
      }),
    ).toEqual([`DEV_CHAIN_SEED: hotkey ${hotkey(1)} has owner ${hotkey(10)} in subnets.1 and ${hotkey(11)} in subnets.2; a hotkey has one owner on chain`]);
  });

  it('needs a "subnets" object', () => {
    expect(problemsOf([])).toEqual(['DEV_CHAIN_SEED must be an object with a "subnets" object']);
    expect(problemsOf({ subnet: {} })).toHaveLength(1);
  });

  it('lists every problem at once', () => {
    const problems = problemsOf({
      subnets: {
        abc: [],
        '70000': [],
        '1': 'nope',
        '2': [
          { hotkey: 'nope', stake: '1', uid: 0 },
          { hotkey: hotkey(1), stake: 5, uid: 1 },
          { hotkey: hotkey(2), stake: '-3', uid: -1 },
          7,
        ],
        '3': [
          { hotkey: hotkey(1), stake: '1', uid: 0 },
          { hotkey: hotkey(1, 0), stake: '1', uid: 2 },
        ],
      },
    });

    expect(problems).toEqual([
      'DEV_CHAIN_SEED subnets.1: must be an array of neurons',
      'DEV_CHAIN_SEED subnets.2[0].hotkey: must be an SS58 address',
      'DEV_CHAIN_SEED subnets.2[1].stake: must be a decimal string of rao',
      'DEV_CHAIN_SEED subnets.2[2].stake: must be a decimal string of rao',
      'DEV_CHAIN_SEED subnets.2[2].uid: must be an integer 0..65535 or null',
      'DEV_CHAIN_SEED subnets.2[3]: must be an object',
      `DEV_CHAIN_SEED subnets.3: hotkey ${hotkey(1)} appears twice`,
      'DEV_CHAIN_SEED subnets.3: uids must be 0..n-1, each once (found 0, 2)',
      'DEV_CHAIN_SEED subnets.70000: netuid must be an integer 0..65535',
      'DEV_CHAIN_SEED subnets.abc: netuid must be an integer 0..65535',
    ]);
  });
});
