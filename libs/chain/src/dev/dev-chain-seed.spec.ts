import { encodeAddress } from '@polkadot/util-crypto';
import { thrownBy } from '@rcs/testing';
import { ChainConfigError } from '../errors';
import { parseDevChainSeed } from './dev-chain-seed';

const hotkey = (fill: number, prefix = 42): string => encodeAddress(new Uint8Array(32).fill(fill), prefix);

const problemsOf = (value: unknown): string[] => thrownBy(ChainConfigError, () => parseDevChainSeed(value))?.problems ?? [];

describe('parseDevChainSeed', () => {
  it('parses subnets, normalising hotkeys to prefix 42 and defaulting an omitted uid to null', () => {
    const seed = parseDevChainSeed({
      subnets: { '94': [{ hotkey: hotkey(1, 0), stake: '123456789012345678901', uid: 0 }, { hotkey: hotkey(2), stake: '7' }] },
    });

    expect(seed.subnets).toEqual(
      new Map([
        [
          94,
          [
            { hotkey: hotkey(1), stake: 123_456_789_012_345_678_901n, uid: 0 },
            { hotkey: hotkey(2), stake: 7n, uid: null },
          ],
        ],
      ]),
    );
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
