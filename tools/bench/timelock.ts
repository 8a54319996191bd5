/**
 * `npm run bench -- timelock`: what a timelocked weight commit costs (libs/timelock). Per commit,
 * a 256-uid WeightsTlockPayload encoded and sealed to a fresh round; per reveal, a ciphertext opened
 * with its round's pulse and the payload decoded. In the same run, one bare BLS12-381 pairing of
 * @noble/curves, the floor each of them pays once, and the beacon-key decoding that the library's
 * key cache saves per commit. Median of five timed rounds after a warm-up. About 15 s.
 */
import { performance } from 'node:perf_hooks';
import { bls12_381 } from '@noble/curves/bls12-381';
import { sha256 } from '@noble/hashes/sha2';
import { decodeWeightsPayload, devBeacon, encodeWeightsPayload, timelockDecrypt, timelockEncrypt, TLE_OVERHEAD_BYTES, verifyPulse, type WeightsTlockPayload } from '@rcs/timelock';
import { median } from './support/stats';

const ROUNDS = 5;
const SECONDS_PER_ROUND = 0.4;
const WARMUP_SECONDS = 0.4;
const UIDS = 256;
const FIRST_ROUND = 5_000_000;
const OPEN_CIPHERTEXTS = 16;

interface Result {
  name: string;
  msPerOp: number;
  rounds: number[];
}

/** Milliseconds per call: the median of ROUNDS timed rounds, each calling `fn` for SECONDS_PER_ROUND. */
function measure(name: string, fn: (i: number) => unknown): Result {
  let calls = 0;
  const runFor = (seconds: number): number => {
    const start = performance.now();
    const deadline = start + seconds * 1000;
    let done = 0;
    let now = start;
    while (now < deadline) {
      fn(calls);
      calls += 1;
      done += 1;
      now = performance.now();
    }
    return (now - start) / done;
  };
  runFor(WARMUP_SECONDS);
  const rounds = Array.from({ length: ROUNDS }, () => runFor(SECONDS_PER_ROUND));
  return { name, msPerOp: median(rounds), rounds };
}

function table(rows: Result[], baseline: Result): string {
  const width = Math.max(...rows.map((r) => r.name.length));
  const lines = rows.map(
    (r) =>
      `${r.name.padEnd(width)}  ${r.msPerOp.toFixed(2).padStart(8)}  ${(r.msPerOp / baseline.msPerOp).toFixed(2).padStart(5)}×  ${r.rounds.map((v) => v.toFixed(1)).join(' ')}`,
  );
  return [`${'case'.padEnd(width)}  ${'ms/op'.padStart(8)}  ${'vs pairing'.padStart(6)}  rounds (ms/op)`, ...lines].join('\n');
}

/** A realistic commit: every uid of a 256-uid subnet with a u16 weight, deterministic so runs compare. */
function weightsPayload(): WeightsTlockPayload {
  const seed = sha256(new TextEncoder().encode('bench/timelock'));
  return {
    hotkey: seed,
    uids: Array.from({ length: UIDS }, (_, uid) => uid),
    values: Array.from({ length: UIDS }, (_, uid) => (seed[uid % 32] * 257 + uid * 131) & 0xffff),
    versionKey: 1_000_001n,
  };
}

function main(): void {
  const beacon = devBeacon('rcs-dev-beacon');
  const payload = weightsPayload();
  const encoded = encodeWeightsPayload(payload);

  // Reveals cycle over ciphertexts of distinct rounds, sealed and pulsed outside the timing.
  const sealed = Array.from({ length: OPEN_CIPHERTEXTS }, (_, i) => {
    const round = FIRST_ROUND + i;
    return { round, ciphertext: timelockEncrypt(encoded, round, beacon.publicKey), pulse: beacon.pulse(round) };
  });
  for (const { ciphertext, pulse } of sealed) {
    const opened = decodeWeightsPayload(timelockDecrypt(ciphertext, pulse));
    if (opened.values.some((value, i) => value !== payload.values[i]) || opened.versionKey !== payload.versionKey) {
      throw new TypeError('a reveal did not give back the committed payload');
    }
  }

  const g1 = bls12_381.G1.Point.BASE;
  const g2 = bls12_381.G2.Point.BASE;
  const pairing = measure('bare pairing e(G1, G2) (@noble/curves)', () => bls12_381.pairing(g1, g2));
  const encrypt = measure(`commit: encode ${UIDS}-uid payload + timelockEncrypt`, (i) =>
    timelockEncrypt(encodeWeightsPayload(payload), FIRST_ROUND + OPEN_CIPHERTEXTS + i, beacon.publicKey),
  );
  const decrypt = measure('reveal: timelockDecrypt + decode payload', (i) => {
    const { ciphertext, pulse } = sealed[i % OPEN_CIPHERTEXTS];
    return decodeWeightsPayload(timelockDecrypt(ciphertext, pulse));
  });
  const verify = measure('verifyPulse (dev chain, per reveal round)', (i) => {
    const { round, pulse } = sealed[i % OPEN_CIPHERTEXTS];
    return verifyPulse(round, pulse, beacon.publicKey);
  });
  // What the beacon-key cache spares each commit: decompressing and subgroup-checking the key, and its Miller-loop lines.
  const keyDecode = measure('beacon key decode + pairing lines (cached)', () =>
    bls12_381.utils.calcPairingPrecomputes(bls12_381.G2.Point.fromBytes(beacon.publicKey)),
  );

  process.stdout.write(
    `payload ${encoded.length} B (${UIDS} uids), ciphertext ${encoded.length + TLE_OVERHEAD_BYTES} B; median of ${ROUNDS} rounds of ${SECONDS_PER_ROUND} s\n`,
  );
  process.stdout.write(`${table([pairing, encrypt, decrypt, verify, keyDecode], pairing)}\n`);
}

main();
