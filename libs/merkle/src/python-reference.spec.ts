import { spawnSync } from 'node:child_process';
import { blake2b } from '@noble/hashes/blake2';
import { join } from 'node:path';
import { toHex } from './bytes';
import { buildClaimEpoch, verifyClaimPackage, type ClaimPackage } from './claim-epoch';
import { accountIdOf } from './leaf';
import { fromHex } from './bytes';
import { hashLeaf, verifyAuditPath } from './tree';

/** libs/merkle/test/merkle_reference.py: the tree and leaf encoding written again in Python, sharing no code with this library. */
const SCRIPT = join(__dirname, '..', 'test', 'merkle_reference.py');

interface PythonLeaf {
  epoch: number;
  index: number;
  hotkey: string;
  recipient: string;
  amount: string;
}
interface PythonAnswer {
  leaf_bytes: string[];
  leaf_hashes: string[];
  root: string;
  paths: string[][];
  verified: boolean[];
}

interface PythonCase {
  leaves: PythonLeaf[];
  checks?: { leaf: PythonLeaf; leaf_count: number; proof: string[]; root: string }[];
}

/** One python3 process answers every case (interpreter start-up dominates on a loaded machine). */
function python(cases: PythonCase[]): PythonAnswer[] {
  const run = spawnSync('python3', [SCRIPT], { input: JSON.stringify({ cases }), encoding: 'utf8', timeout: 60_000 });
  if (run.status !== 0) throw new TypeError(`merkle_reference.py failed (${run.status}): ${run.stderr}`);
  return (JSON.parse(run.stdout) as { cases: PythonAnswer[] }).cases;
}

const U64_MAX = (1n << 64n) - 1n;
const account = (seed: number): Uint8Array => blake2b(Uint8Array.of(seed & 0xff, seed >> 8), { dkLen: 32 });

function epochOf(epoch: number, size: number) {
  return buildClaimEpoch(
    epoch,
    Array.from({ length: size }, (_, i) => ({
      hotkey: account(i),
      recipientColdkey: account(1_000 + i),
      amount: i === size - 1 ? U64_MAX - BigInt(i) : BigInt(i) * 1_000_000_007n,
    })),
  );
}

const asPythonLeaf = (pkg: Pick<ClaimPackage, 'epoch' | 'index' | 'hotkey' | 'recipient_coldkey' | 'amount'>): PythonLeaf => ({
  epoch: pkg.epoch,
  index: pkg.index,
  hotkey: toHex(accountIdOf(pkg.hotkey)),
  recipient: toHex(accountIdOf(pkg.recipient_coldkey)),
  amount: pkg.amount,
});

describe('libs/merkle against an independent Python implementation (hashlib.blake2b)', () => {
  const sizes = [...Array.from({ length: 17 }, (_, i) => i + 1), 100, 257];

  it('1..17, 100 and 257 leaves: same leaf bytes, leaf hashes, root and audit paths; Python accepts every TS proof', () => {
    const epochs = sizes.map((size) => epochOf(4_294_967_296 + size, size));
    const answers = python(
      epochs.map((epoch) => {
        const packages = epoch.entries.map((entry) => epoch.packageAt(entry.index));
        return {
          leaves: packages.map(asPythonLeaf),
          checks: packages.map((pkg) => ({ leaf: asPythonLeaf(pkg), leaf_count: pkg.leaf_count, proof: pkg.proof, root: pkg.root })),
        };
      }),
    );
    expect(answers).toHaveLength(sizes.length);
    epochs.forEach((epoch, i) => expectSame(epoch, answers[i]));
  });

  function expectSame(epoch: ReturnType<typeof epochOf>, answer: PythonAnswer): void {
    const packages = epoch.entries.map((entry) => epoch.packageAt(entry.index));
    expect(answer.leaf_bytes).toEqual(epoch.entries.map((entry) => toHex(entry.leaf)));
    expect(answer.leaf_hashes).toEqual(packages.map((pkg) => pkg.leaf_hash));
    expect(answer.root).toBe(epoch.root);
    expect(answer.paths).toEqual(packages.map((pkg) => pkg.proof));
    expect(answer.verified).toEqual(packages.map(() => true));
  }

  it('TS accepts every audit path Python computed, against the root Python computed', () => {
    const epoch = epochOf(9, 23);
    const leaves = epoch.entries.map((entry) => asPythonLeaf({ ...epoch.packageAt(entry.index) }));
    const [answer] = python([{ leaves }]);
    answer.paths.forEach((path, index) => {
      const leafHash = hashLeaf(fromHex(answer.leaf_bytes[index]));
      expect(verifyAuditPath(leafHash, index, leaves.length, path.map((hash) => fromHex(hash)), fromHex(answer.root))).toBe(true);
      const pkg = { ...epoch.packageAt(index), proof: path, root: answer.root as ClaimPackage['root'] };
      expect(verifyClaimPackage(pkg, { root: answer.root as ClaimPackage['root'], leafCount: leaves.length }).ok).toBe(true);
    });
  });

  it('Python refuses the tampered packages TS refuses (amount, recipient, index, proof, leaf count)', () => {
    const epoch = epochOf(3, 13);
    const pkg = epoch.packageAt(6);
    const other = epoch.packageAt(7);
    const leaf = asPythonLeaf(pkg);
    const check = (overrides: Partial<PythonLeaf>, proof = pkg.proof, leafCount = pkg.leaf_count) => ({ leaf: { ...leaf, ...overrides }, leaf_count: leafCount, proof, root: pkg.root });
    const checks = [
      check({}),
      check({ amount: (BigInt(pkg.amount) + 1n).toString() }),
      check({ recipient: asPythonLeaf(other).recipient }),
      check({ index: 7 }),
      check({}, other.proof),
      check({}, pkg.proof.slice(0, -1)),
      check({}, [...pkg.proof].reverse()),
      check({}, pkg.proof, 7),
    ];
    const [answer] = python([{ leaves: [], checks }]);
    expect(answer.verified).toEqual([true, false, false, false, false, false, false, false]);
    for (const [i, forged] of checks.entries()) {
      const ts = verifyClaimPackage(
        { ...pkg, ...{ amount: forged.leaf.amount, amount_units: forged.leaf.amount, index: forged.leaf.index, recipient_coldkey: forged.leaf.recipient, proof: forged.proof as ClaimPackage['proof'], leaf_count: forged.leaf_count }, leaf_hash: undefined },
        { root: pkg.root, leafCount: forged.leaf_count },
      );
      expect({ check: i, ok: ts.ok }).toEqual({ check: i, ok: answer.verified[i] });
    }
  });
});
