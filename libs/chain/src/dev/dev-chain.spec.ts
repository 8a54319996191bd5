import type { KeyringPair } from '@polkadot/keyring/types';
import { encodeAddress } from '@polkadot/util-crypto';
import { InvalidAddressError } from '../errors';
import { devBeacon, encodeWeightsPayload, timelockEncrypt } from '@rcs/timelock';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
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

  it('serves owners from the seed on every subnet, prefix 42, and null for a hotkey without one', async () => {
    const seed = parseDevChainSeed({
      subnets: {
        '1': [
          { hotkey: hotkey(1), stake: '1', uid: 0, owner: hotkey(10, 0) },
          { hotkey: hotkey(2), stake: '1', uid: 1, owner: hotkey(10) },
          { hotkey: hotkey(3), stake: '1', uid: 2 },
        ],
        '2': [{ hotkey: hotkey(4), stake: '1', owner: hotkey(11) }],
      },
    });
    const chain = new DevChain({ seed });

    expect(await chain.ownerOf(hotkey(1))).toBe(hotkey(10));
    expect(await chain.ownerOf(hotkey(2, 0))).toBe(hotkey(10));
    expect(await chain.ownerOf(hotkey(3))).toBeNull();
    expect(await chain.ownerOf(hotkey(4))).toBe(hotkey(11));
    expect(await chain.ownerOf(hotkey(5))).toBeNull();
    await expect(chain.ownerOf('5NotAnAddress')).rejects.toBeInstanceOf(InvalidAddressError);
  });

  it('sets, moves and removes an owner at run time, refusing the all-zero account and non-addresses', async () => {
    const chain = new DevChain({ seed: parseDevChainSeed({ subnets: { '1': [{ hotkey: hotkey(1), stake: '1', owner: hotkey(10) }] } }) });

    chain.setOwner(hotkey(2, 0), hotkey(10, 0));
    expect(await chain.ownerOf(hotkey(2))).toBe(hotkey(10));
    chain.setOwner(hotkey(1), hotkey(11));
    expect(await chain.ownerOf(hotkey(1))).toBe(hotkey(11));
    chain.setOwner(hotkey(1), null);
    expect(await chain.ownerOf(hotkey(1))).toBeNull();
    expect(() => chain.setOwner(hotkey(2), hotkey(0))).toThrow(RangeError);
    expect(() => chain.setOwner(hotkey(2), 'nope')).toThrow(InvalidAddressError);
    expect(() => chain.setOwner('nope', hotkey(10))).toThrow(InvalidAddressError);
    expect(await chain.ownerOf(hotkey(2))).toBe(hotkey(10));
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

describe('DevChain weights', () => {
  const netuid = 3;
  const seed = parseDevChainSeed({ subnets: { [netuid]: [0, 1, 2].map((uid) => ({ hotkey: hotkey(uid + 1), stake: '1', uid })) } });
  const signer = (fill: number) => ({ address: hotkey(fill) }) as unknown as KeyringPair;

  it('records weights with their block, shows them in LastUpdate and refuses a second set within the rate limit', async () => {
    const clock = manualClock(0);
    const chain = new DevChain({ seed, now: clock.now, genesisMs: 0, blockTimeMs: 1_000, weightsSetRateLimit: 10, commitRevealWeightsEnabled: false });
    clock.advance(5_000);

    const inclusion = await chain.setWeights(signer(2), { netuid, uids: [0, 2], values: [65_535, 100], versionKey: 1337 });

    expect(inclusion.block).toBe(5);
    expect(await chain.lastUpdate(netuid)).toEqual([0, 5, 0]);
    expect(await chain.weightsOf(netuid)).toEqual([
      { netuid, uid: 1, hotkey: hotkey(2), uids: [0, 2], values: [65_535, 100], versionKey: 1337, block: 5, txHash: inclusion.txHash },
    ]);
    clock.advance(10_000);
    await expect(chain.setWeights(signer(2), { netuid, uids: [0], values: [1], versionKey: 1 })).rejects.toThrow(/SettingWeightsTooFast/);
    clock.advance(1_000);
    expect((await chain.setWeights(signer(2), { netuid, uids: [0], values: [1], versionKey: 1 })).block).toBe(16);
  });

  it('refuses an unregistered signer, unknown uids and commit-reveal subnets like the runtime', async () => {
    const chain = new DevChain({ seed, commitRevealWeightsEnabled: false });
    await expect(chain.setWeights(signer(9), { netuid, uids: [0], values: [1], versionKey: 1 })).rejects.toThrow(/HotKeyNotRegisteredInSubNet/);
    await expect(chain.setWeights(signer(1), { netuid, uids: [3], values: [1], versionKey: 1 })).rejects.toThrow(/UidVecContainInvalidOne/);
    // Commit-reveal is on unless asked off, as subtensor's DefaultCommitRevealWeightsEnabled.
    const commitReveal = new DevChain({ seed });
    expect(await commitReveal.commitRevealWeightsEnabled(netuid)).toBe(true);
    await expect(commitReveal.setWeights(signer(1), { netuid, uids: [0], values: [1], versionKey: 1 })).rejects.toThrow(/CommitRevealEnabled/);
  });
});

describe('DevChain timelocked commits (DECISIONS §12)', () => {
  // netuid 3, tempo 10: epoch e spans blocks 11e − 4 … 11e + 6; 1 s blocks; the beacon's round r is out at (r − 1)·3 s.
  const netuid = 3;
  const seed = parseDevChainSeed({ subnets: { [netuid]: [0, 1, 2].map((uid) => ({ hotkey: hotkey(uid + 1), stake: '1', uid })) } });
  const signer = (fill: number) => ({ address: hotkey(fill) }) as unknown as KeyringPair;
  const vectors = JSON.parse(readFileSync(resolve(__dirname, '../../../../../shared/vectors/timelock-weights.json'), 'utf8')) as {
    dev_beacon: { seed: string; public_key_g2_compressed: string; pulses: { round: number; signature_g1_compressed: string }[] };
  };

  function chainAt(startMs: number, options: { tempo?: number; weightsSetRateLimit?: number; netuidTempo?: number } = {}) {
    const clock = manualClock(startMs);
    const chain = new DevChain({ seed, now: clock.now, genesisMs: 0, blockTimeMs: 1_000, tempo: options.tempo ?? 10, weightsSetRateLimit: options.weightsSetRateLimit ?? 0 });
    return { clock, chain };
  }

  async function sealed(chain: DevChain, round: number, signerFill: number, uids = [0, 2], values = [65_535, 7], versionKey = 5n): Promise<Uint8Array> {
    const { publicKey } = await chain.drandBeacon();
    return timelockEncrypt(encodeWeightsPayload({ hotkey: new Uint8Array(32).fill(signerFill), uids, values, versionKey }), round, publicKey);
  }

  it('serves the dev beacon of DEV_DRAND_SEED (the vectors\' key and pulses), with its genesis at the chain\'s', async () => {
    const { chain } = chainAt(5_000_000);
    const beacon = await chain.drandBeacon();

    expect(Buffer.from(beacon.publicKey).toString('hex')).toBe(vectors.dev_beacon.public_key_g2_compressed);
    expect(beacon).toMatchObject({ genesisTime: 0, period: 3 });
    for (const pulse of vectors.dev_beacon.pulses) expect(Buffer.from(chain.pulse(BigInt(pulse.round)) ?? []).toString('hex')).toBe(pulse.signature_g1_compressed);
    expect(chain.pulse(1_667_000n)).toBeNull(); // out at 4,999,998 s: not yet at 5,000 s
    expect(devBeacon(vectors.dev_beacon.seed).publicKey).toEqual(beacon.publicKey);
  });

  it('holds a commit until its reveal epoch, then reveals it at the first block with its pulse, with the checks of set_weights', async () => {
    const { clock, chain } = chainAt(5_000);
    const commit = await sealed(chain, 3, 2);

    const inclusion = await chain.commitTimelockedWeights(signer(2), { netuid, commit, revealRound: 3n, commitRevealVersion: 4 });

    // Block 5 is in epoch 0 ((5 + 4) / 11); the reveal epoch 1 starts at block 7; round 3 is out at 6 s (block 6).
    expect(inclusion.block).toBe(5);
    expect(await chain.lastUpdate(netuid)).toEqual([0, 5, 0]);
    expect(await chain.timelockedCommits(netuid, hotkey(2))).toEqual([{ epoch: 0, hotkey: hotkey(2), commitBlock: 5, commit, revealRound: 3n }]);
    clock.advance(1_999); // block 6
    expect(await chain.uidWeights(netuid, 1)).toEqual([]);
    clock.advance(1); // block 7
    expect(await chain.uidWeights(netuid, 1)).toEqual([
      [0, 65_535],
      [2, 7],
    ]);
    expect(await chain.timelockedCommits(netuid, hotkey(2))).toEqual([]);
    expect(await chain.lastUpdate(netuid)).toEqual([0, 7, 0]);
    expect((await chain.weightsOf(netuid))[0]).toMatchObject({ uid: 1, block: 7, txHash: inclusion.txHash, versionKey: 5 });
  });

  it('drops without a trace a commit naming another hotkey, one sealed to another round, and one that breaks a weight rule', async () => {
    const { clock, chain } = chainAt(5_000);
    const otherHotkey = await sealed(chain, 3, 1); // the payload names hotkey 1; hotkey 2 commits it
    const { publicKey } = await chain.drandBeacon();
    const payload = encodeWeightsPayload({ hotkey: new Uint8Array(32).fill(1), uids: [0], values: [1], versionKey: 5n });
    const otherRound = timelockEncrypt(payload, 2, publicKey); // sealed to round 2, committed as round 3
    const badUid = await sealed(chain, 3, 3, [0, 9], [1, 1]); // uid 9 does not exist
    const commits: [number, Uint8Array][] = [
      [2, otherHotkey],
      [1, otherRound],
      [3, badUid],
    ];
    for (const [fill, commit] of commits) await chain.commitTimelockedWeights(signer(fill), { netuid, commit, revealRound: 3n, commitRevealVersion: 4 });
    for (const fill of [1, 2, 3]) expect(await chain.timelockedCommits(netuid, hotkey(fill))).toHaveLength(1);

    clock.advance(2_000); // block 7: the reveal
    for (const fill of [1, 2, 3]) expect(await chain.timelockedCommits(netuid, hotkey(fill))).toEqual([]);
    expect(await chain.weightsOf(netuid)).toEqual([]);
  });

  it('lets a commit whose pulse comes after its reveal epoch expire once that epoch is over', async () => {
    const { clock, chain } = chainAt(5_000);
    // Round 7 is out at 18 s (block 18); the reveal epoch 1 ends at block 17.
    await chain.commitTimelockedWeights(signer(2), { netuid, commit: await sealed(chain, 7, 2), revealRound: 7n, commitRevealVersion: 4 });

    clock.advance(12_000); // block 17
    expect(await chain.timelockedCommits(netuid, hotkey(2))).toHaveLength(1);
    clock.advance(1_000); // block 18
    expect(await chain.timelockedCommits(netuid, hotkey(2))).toEqual([]);
    expect(await chain.uidWeights(netuid, 1)).toEqual([]);
  });

  it('files a commit in the block that runs the epoch under the next epoch, as subtensor does', async () => {
    const { chain } = chainAt(6_000); // block 6: (6 + 4) mod 11 = 10, the subnet's epoch runs
    await chain.commitTimelockedWeights(signer(2), { netuid, commit: await sealed(chain, 3, 2), revealRound: 3n, commitRevealVersion: 4 });
    expect((await chain.timelockedCommits(netuid, hotkey(2)))[0]?.epoch).toBe(1);
  });

  it('refuses what subtensor refuses: commit-reveal off, another version, too fast, an unregistered hotkey, an 11th commit in an epoch', async () => {
    const off = new DevChain({ seed, commitRevealWeightsEnabled: false });
    const commit = new Uint8Array(300);
    await expect(off.commitTimelockedWeights(signer(2), { netuid, commit, revealRound: 1n, commitRevealVersion: 4 })).rejects.toThrow(/CommitRevealDisabled/);
    const { clock, chain } = chainAt(0, { tempo: 360, weightsSetRateLimit: 2 });
    await expect(chain.commitTimelockedWeights(signer(2), { netuid, commit, revealRound: 1n, commitRevealVersion: 3 })).rejects.toThrow(/IncorrectCommitRevealVersion/);
    await expect(chain.commitTimelockedWeights(signer(9), { netuid, commit, revealRound: 1n, commitRevealVersion: 4 })).rejects.toThrow(/HotKeyNotRegisteredInSubNet/);
    clock.advance(1_000);
    await chain.commitTimelockedWeights(signer(2), { netuid, commit, revealRound: 1n, commitRevealVersion: 4 });
    clock.advance(2_000);
    await expect(chain.commitTimelockedWeights(signer(2), { netuid, commit, revealRound: 1n, commitRevealVersion: 4 })).rejects.toThrow(/CommittingWeightsTooFast/);
    for (let i = 1; i < 10; i++) {
      clock.advance(3_000);
      await chain.commitTimelockedWeights(signer(2), { netuid, commit, revealRound: 1n, commitRevealVersion: 4 });
    }
    clock.advance(3_000);
    await expect(chain.commitTimelockedWeights(signer(2), { netuid, commit, revealRound: 1n, commitRevealVersion: 4 })).rejects.toThrow(/TooManyUnrevealedCommits/);
    expect(await chain.timelockedCommits(netuid, hotkey(2))).toHaveLength(10);
  });
});
