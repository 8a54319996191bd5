/**
 * `npm run bench -- epoch`: an epoch of 100,000 hotkeys. Builds the claim tree, its root and every
 * audit path (libs/merkle), and in the same run hashes the same 100,000 84-byte leaves once with
 * BLAKE2b-256: the floor any tree build pays. Target: build ≤ 3× that floor. Median of
 * five rounds after one warm-up; exits 1 when the target is missed.
 */
import { performance } from 'node:perf_hooks';
import { blake2b } from '@noble/hashes/blake2';
import { buildClaimEpoch, CLAIM_LEAF_BYTES, encodeClaimLeaf, MerkleTree } from '@rcs/merkle';
import { median } from './support/stats';

const HOTKEYS = 100_000;
const ROUNDS = 5;
const TARGET_RATIO = 3;

const account = (seed: number, salt: number): Uint8Array => blake2b(Uint8Array.of(salt, seed & 0xff, (seed >> 8) & 0xff, seed >> 16), { dkLen: 32 });
const leaves = Array.from({ length: HOTKEYS }, (_, index) =>
  encodeClaimLeaf({ epoch: 1_234, index, hotkey: account(index, 1), recipientColdkey: account(index, 2), amount: BigInt(index) * 997n + 1n }),
);
if (leaves.some((leaf) => leaf.length !== CLAIM_LEAF_BYTES)) throw new TypeError('leaf size drifted');

function bareHashing(): number {
  let sink = 0;
  for (const leaf of leaves) sink ^= blake2b(leaf, { dkLen: 32 })[0];
  return sink;
}

function treeRootAndProofs(): number {
  const tree = MerkleTree.fromLeaves(leaves);
  let sink = tree.root[0];
  for (let i = 0; i < tree.size; i += 1) sink ^= tree.proof(i).length;
  return sink;
}

function time(work: () => number): number {
  const start = performance.now();
  work();
  return performance.now() - start;
}

bareHashing();
treeRootAndProofs();
const bare: number[] = [];
const build: number[] = [];
for (let round = 0; round < ROUNDS; round += 1) {
  bare.push(time(bareHashing));
  build.push(time(treeRootAndProofs));
}
const ratio = median(build) / median(bare);

// For scale, what the pool does per epoch: SS58 canonicalisation, sorting, encoding, tree, and every package (hex proofs).
const entries = Array.from({ length: HOTKEYS }, (_, i) => ({ hotkey: account(i, 1), recipientColdkey: account(i, 2), amount: BigInt(i) + 1n }));
const packagesMs = time(() => {
  const epoch = buildClaimEpoch(1_234, entries);
  let sink = 0;
  for (let i = 0; i < epoch.entries.length; i += 1) sink ^= epoch.packageAt(i).proof.length;
  return sink;
});

const ms = (value: number): string => `${value.toFixed(1)} ms`;
process.stdout.write(
  [
    `hotkeys                                  ${HOTKEYS}`,
    `BLAKE2b-256 of every 84-byte leaf once   ${ms(median(bare))} (median of ${ROUNDS}: ${bare.map((v) => v.toFixed(0)).join(', ')})`,
    `tree + root + every audit path           ${ms(median(build))} (median of ${ROUNDS}: ${build.map((v) => v.toFixed(0)).join(', ')})`,
    `ratio                                    ${ratio.toFixed(2)}× (target ≤ ${TARGET_RATIO}×) ${ratio <= TARGET_RATIO ? 'OK' : 'MISSED'}`,
    `whole epoch with every package (hex)     ${ms(packagesMs)} (informative: SS58, sort, encode, tree, packages)`,
    '',
  ].join('\n'),
);
process.exit(ratio <= TARGET_RATIO ? 0 : 1);
