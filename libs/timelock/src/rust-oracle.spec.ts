import { loadRustOracle, type RustOracle } from '../test/rust-oracle';
import { byteMismatch, hex, quicknetKey, quicknetPulse, seededBytes, toHex, vectors } from '../test/support';
import { devBeacon } from './beacon';
import { TLE_OVERHEAD_BYTES } from './ciphertext';
import { TimelockError } from './errors';
import { timelockDecrypt, timelockEncrypt, type EncryptRandomness } from './tlock';
import { encodeWeightsPayload } from './weights-payload';

const CASES = 40;
const MAX_PAYLOAD = 4608; // 4.5 KiB: with the 244-byte overhead still under the chain's 5000-byte commit limit
const EDGE_LENGTHS = [1, 2, 15, 16, 17, 32, 33, 255, 256, 1071, 4095, 4096, MAX_PAYLOAD];

const dev = devBeacon(vectors.dev_beacon.seed);

interface Beacon {
  name: string;
  publicKey: Uint8Array;
  pulse(round: number): Uint8Array;
}
const quicknet: Beacon = { name: 'quicknet', publicKey: quicknetKey, pulse: quicknetPulse };
const devPulses = new Map([1000, 2000].map((round) => [round, dev.pulse(round)]));
const devChain: Beacon = {
  name: 'dev',
  publicKey: dev.publicKey,
  pulse: (round) => devPulses.get(round) ?? dev.pulse(round),
};

interface OracleCase {
  index: number;
  beacon: Beacon;
  round: number;
  otherRound: number;
  plaintext: Uint8Array;
  /** Seeded for even cases (replayable); odd cases draw from crypto.getRandomValues like production. */
  randomness: EncryptRandomness | undefined;
  /** The AES key handed to the Rust crate's `tle`. */
  rustEsk: Uint8Array;
}

/** A realistic commit: 256 uids with u16 weights. */
function weightsPayload(seed: string): Uint8Array {
  const weights = seededBytes(seed, 512);
  return encodeWeightsPayload({
    hotkey: seededBytes(`${seed}/hotkey`, 32),
    uids: Array.from({ length: 256 }, (_, uid) => uid),
    values: Array.from({ length: 256 }, (_, i) => weights[2 * i] | (weights[2 * i + 1] << 8)),
    versionKey: 1_000_000n + BigInt(weights[0]),
  });
}

const cases: OracleCase[] = Array.from({ length: CASES }, (_, index) => {
  const seed = `timelock-oracle/${index}`;
  const drawn = seededBytes(`${seed}/length`, 4);
  const length = index < EDGE_LENGTHS.length ? EDGE_LENGTHS[index] : 1 + (new DataView(drawn.buffer).getUint32(0) % MAX_PAYLOAD);
  const round = index % 4 < 2 ? 1000 : 2000;
  return {
    index,
    beacon: index % 2 === 0 ? quicknet : devChain,
    round,
    otherRound: round === 1000 ? 2000 : 1000,
    plaintext: index % 10 === 9 ? weightsPayload(seed) : seededBytes(`${seed}/plaintext`, length),
    randomness: index % 2 === 0 ? { esk: seededBytes(`${seed}/esk`, 32), sigma: seededBytes(`${seed}/sigma`, 32), nonce: seededBytes(`${seed}/nonce`, 12) } : undefined,
    rustEsk: seededBytes(`${seed}/rust-esk`, 32),
  };
});

function refusalCode(open: () => unknown): string {
  try {
    open();
  } catch (error) {
    if (error instanceof TimelockError) return error.code;
    throw error;
  }
  return 'opened';
}

describe('against the Rust tle crate compiled to wasm (@ideallabs/timelock_wasm_wrapper@1.0.0)', () => {
  let rust: RustOracle;

  beforeAll(async () => {
    rust = await loadRustOracle();
  });

  it('the oracle is the crate subtensor links: it opens the vectors and refuses the negative one', () => {
    for (const vector of vectors.ciphertexts) {
      expect(toHex(rust.decrypt(hex(vector.ciphertext_hex), quicknetPulse(vector.round)))).toBe(vector.plaintext_hex);
    }
    expect(() => rust.decrypt(hex(vectors.ciphertexts[0].ciphertext_hex), quicknetPulse(2000))).toThrow(/decryption has failed/);
  });

  it.each(cases.map((c) => [c.index, c.beacon.name, c.round, c.plaintext.length, c] as const))(
    'case %i: %s round %i, %i-byte plaintext, both ways',
    (_index, _beacon, _round, _length, { beacon, round, otherRound, plaintext, randomness, rustEsk }) => {
      const ours = timelockEncrypt(plaintext, round, beacon.publicKey, randomness);
      expect(ours.length).toBe(plaintext.length + TLE_OVERHEAD_BYTES);
      expect(byteMismatch(rust.decrypt(ours, beacon.pulse(round)), plaintext)).toBeUndefined();
      expect(() => rust.decrypt(ours, beacon.pulse(otherRound))).toThrow(/decryption has failed/);
      if (randomness !== undefined) expect(byteMismatch(rust.openBody(ours, randomness.esk), plaintext)).toBeUndefined();

      const theirs = rust.encrypt(plaintext, round, rustEsk, beacon.publicKey);
      expect(theirs.length).toBe(plaintext.length + TLE_OVERHEAD_BYTES);
      expect(byteMismatch(timelockDecrypt(theirs, beacon.pulse(round)), plaintext)).toBeUndefined();
    },
  );

  it.each(cases.filter((c) => c.index % 8 === 0).map((c) => [c.index, c.beacon.name, c] as const))(
    'case %i: a ciphertext the crate sealed is refused with the pulse of another round (%s)',
    (_index, _beacon, { beacon, round, otherRound, plaintext, rustEsk }) => {
      const theirs = rust.encrypt(plaintext, round, rustEsk, beacon.publicKey);
      expect(refusalCode(() => timelockDecrypt(theirs, beacon.pulse(otherRound)))).toBe('wrong_round');
    },
  );
});
