import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

const WRAPPER = '@ideallabs/timelock_wasm_wrapper';
const CURVE = 'bls12_381';

// The wrapper is wasm-bindgen `--target web` output (ESM whose default init fetches the .wasm by URL);
// jest.config.js compiles it to CommonJS, and `initSync` takes the module's bytes from disk instead.
const importWrapper = () => import('@ideallabs/timelock_wasm_wrapper');

/**
 * The Rust tle crate (ideal-lab5/timelock, TinyBLS381 + AESGCMStreamCipherProvider) compiled to
 * wasm, as @ideallabs/timelock_wasm_wrapper@1.0.0 exposes it. Test oracle only.
 */
export interface RustOracle {
  /** `tle`: seals to the identity sha256(round as u64 BE) with `esk` as the AES key; sigma and nonce come from the crate's OsRng. */
  encrypt(plaintext: Uint8Array, round: bigint | number, esk: Uint8Array, beaconPublicKey: Uint8Array): Uint8Array;
  /** `tld`: opens with a pulse (48-byte compressed G1); throws when the crate refuses. */
  decrypt(ciphertext: Uint8Array, pulse: Uint8Array): Uint8Array;
  /** `decrypt`: opens only the AES body with `esk`, skipping the IBE header. */
  openBody(ciphertext: Uint8Array, esk: Uint8Array): Uint8Array;
}

/** serde_wasm_bindgen hands a Vec<u8> back as a plain array of numbers. */
function bytesFrom(value: unknown, what: string): Uint8Array {
  if (!Array.isArray(value) || !value.every((item): item is number => Number.isInteger(item) && item >= 0 && item <= 255)) {
    throw new TypeError(`the wasm ${what} did not return a byte array`);
  }
  return Uint8Array.from(value);
}

const list = (bytes: Uint8Array): number[] => Array.from(bytes);

function roundId(round: bigint | number): number[] {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(round));
  return list(createHash('sha256').update(message).digest());
}

export async function loadRustOracle(): Promise<RustOracle> {
  const wasm = await importWrapper();
  wasm.initSync({ module: readFileSync(require.resolve(`${WRAPPER}/timelock_wasm_wrapper_bg.wasm`)) });
  return {
    encrypt: (plaintext, round, esk, beaconPublicKey) => bytesFrom(wasm.tle(roundId(round), list(plaintext), list(esk), list(beaconPublicKey), CURVE), 'tle'),
    decrypt: (ciphertext, pulse) => bytesFrom(wasm.tld(list(ciphertext), list(pulse), CURVE), 'tld'),
    openBody: (ciphertext, esk) => bytesFrom(wasm.decrypt(list(ciphertext), list(esk), CURVE), 'decrypt'),
  };
}
