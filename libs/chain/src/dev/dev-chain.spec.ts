import { encodeAddress } from '@polkadot/util-crypto';
import { InvalidAddressError } from '../errors';
import { DevChain } from './dev-chain';
import { parseDevChainSeed } from './dev-chain-seed';

const hotkey = (fill: number, prefix = 42): string => encodeAddress(new Uint8Array(32).fill(fill), prefix);

/** A clock the test moves by hand. */
function manualClock(startMs: number) {
  let nowMs = startMs;
  return { now: () => nowMs, advance: (ms: number) => void (nowMs += ms) };
}

describe('DevChain', () => {
  it('advances one block per block time of the clock', async () => {
    const clock = manualClock(1_700_000_000_000);
    const chain = new DevChain({ now: clock.now });

    expect(await chain.latestBlock()).toBe(0);
    clock.advance(11_999);
    expect(await chain.latestBlock()).toBe(0);
    clock.advance(1);
    expect(await chain.latestBlock()).toBe(1);
    clock.advance(12_000 * 99);
    expect(await chain.latestBlock()).toBe(100);
  });

  it('counts from the given genesis with a configurable block time', async () => {
    const clock = manualClock(10_000);
    const chain = new DevChain({ now: clock.now, genesisMs: 0, blockTimeMs: 250 });

    expect(await chain.latestBlock()).toBe(40);
    expect(new DevChain({ now: clock.now, genesisMs: 20_000 }).currentBlock()).toBe(0);
  });

  it('serves stakes and uids from the seed', async () => {
    const seed = parseDevChainSeed({
      subnets: {
        '94': [
          { hotkey: hotkey(1), stake: '18446744073709551615', uid: 1 },
          { hotkey: hotkey(2), stake: '0', uid: 0 },
          { hotkey: hotkey(3), stake: '5000', uid: null },
        ],
      },
    });
    const chain = new DevChain({ seed });

    expect(await chain.alphaStake(hotkey(1), 94)).toBe(18_446_744_073_709_551_615n);
    expect(await chain.alphaStake(hotkey(3), 94)).toBe(5_000n);
    expect(await chain.alphaStake(hotkey(4), 94)).toBe(0n);
    expect(await chain.alphaStake(hotkey(1), 95)).toBe(0n);
    expect(await chain.uidOf(hotkey(1), 94)).toBe(1);
    expect(await chain.uidOf(hotkey(3), 94)).toBeNull();
    expect(await chain.metagraphHotkeys(94)).toEqual([hotkey(2), hotkey(1)]);
    expect(await chain.metagraphHotkeys(95)).toEqual([]);
  });

  it('treats one account written with different SS58 prefixes as one hotkey', async () => {
    const chain = new DevChain();
    chain.setStake(hotkey(7, 0), 1, 42n);

    expect(await chain.alphaStake(hotkey(7), 1)).toBe(42n);
    expect(chain.register(hotkey(7), 1)).toBe(chain.register(hotkey(7, 2), 1));
    expect(await chain.metagraphHotkeys(1)).toEqual([hotkey(7)]);
  });

  it('registers hotkeys on the next uid and keeps an existing uid', async () => {
    const chain = new DevChain({ seed: parseDevChainSeed({ subnets: { '3': [{ hotkey: hotkey(1), stake: '1', uid: 0 }] } }) });

    expect(chain.register(hotkey(2), 3)).toBe(1);
    expect(chain.register(hotkey(3), 3)).toBe(2);
    expect(chain.register(hotkey(2), 3)).toBe(1);
    expect(chain.register(hotkey(2), 4)).toBe(0);
    expect(await chain.uidOf(hotkey(3), 3)).toBe(2);
    expect(await chain.metagraphHotkeys(3)).toEqual([hotkey(1), hotkey(2), hotkey(3)]);
  });

  it('sets and overwrites stakes, refusing negative ones and non-addresses', async () => {
    const chain = new DevChain();
    chain.setStake(hotkey(1), 2, 10n);
    chain.setStake(hotkey(1), 2, 0n);

    expect(await chain.alphaStake(hotkey(1), 2)).toBe(0n);
    expect(() => chain.setStake(hotkey(1), 2, -1n)).toThrow(RangeError);
    expect(() => chain.register('5NotAnAddress', 2)).toThrow(InvalidAddressError);
    await expect(chain.uidOf('5NotAnAddress', 2)).rejects.toBeInstanceOf(InvalidAddressError);
  });
});
