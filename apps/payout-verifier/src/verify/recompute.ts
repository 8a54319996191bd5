import { createHash } from 'node:crypto';
import { ContractHotkeyMode, RewardScope, type AllocationDocument, type AllocationEntry, type RewardSnapshotDto } from '@rcs/contracts';
import { buildClaimEpoch, encodeClaimLeaf, MerkleTree, splitEpoch, toHex, type SplitCompetition } from '@rcs/merkle';
import { expectedRecipient, type RecipientRecord } from './recipient-rule';
import { CanonicalAccounts } from './ss58';

/**
 * The verifier's recomputation of one published epoch (DECISIONS.md §16), pure: from the allocation
 * document the epoch's uri names, the snapshot the coordinator served, the previous epoch's
 * cumulative amounts, the miners' signed recipient records and the contract's epoch, it either
 * finds every number again or names the first check that fails, with what it expected and what
 * was published. The split itself is `@rcs/merkle`'s (the one arithmetic of §8); everything fed
 * to it is read here from the inputs, never from the pool's tables.
 */

/** The checks, in the order they run; a mismatch names one. */
export const CHECKS = ['allocation_hash', 'allocation_shape', 'snapshot_served', 'cumulative', 'units', 'recipients', 'root'] as const;
export type CheckName = (typeof CHECKS)[number];

export interface Mismatch {
  result: 'mismatch';
  check: CheckName;
  message: string;
  expected: unknown;
  published: unknown;
}

export interface ContractView {
  root: string;
  numOfLeaves: number;
  totalRao: bigint;
}

/** What an epoch adds to: the previous epoch's cumulative rao per hotkey and what it carried over. */
export interface PreviousEpoch {
  epoch: number | null;
  cumulative: ReadonlyMap<string, bigint>;
  carriedOver: bigint;
}

export interface Verified {
  result: 'verified';
  cumulative: Map<string, bigint>;
  carriedOver: bigint;
}

export const sha256Hex = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

const mismatch = (check: CheckName, message: string, expected: unknown, published: unknown): Mismatch => ({ result: 'mismatch', check, message, expected, published });

/** The `sha256` the uri carries (`…/allocation?sha256=<hex>`), lowercase, or null. */
export function uriSha256(uri: string): string | null {
  const match = /[?&]sha256=([0-9a-fA-F]{64})(?:&|$)/.exec(uri);
  return match ? match[1].toLowerCase() : null;
}

const DECIMAL = /^(0|[1-9][0-9]*)$/;
/** Prefix-42 SS58 of a 32-byte key: 48 base58 characters starting with 5. */
const SS58_42 = /^5[1-9A-HJ-NP-Za-km-z]{47}$/;

/** The allocation bytes are the ones the uri names, and a document of this epoch in the §8 shape. */
export function readAllocation(epoch: number, uri: string, bytes: Uint8Array): AllocationDocument | Mismatch {
  const named = uriSha256(uri);
  const actual = sha256Hex(bytes);
  if (named !== actual) return mismatch('allocation_hash', `the allocation served at the epoch's uri does not hash to the SHA-256 its uri names`, named, actual);
  let document: AllocationDocument;
  try {
    document = JSON.parse(Buffer.from(bytes).toString('utf8')) as AllocationDocument;
  } catch {
    return mismatch('allocation_shape', 'the allocation document is not JSON', 'JSON', 'unparseable');
  }
  const problems = shapeProblems(epoch, document);
  return problems.length === 0 ? document : mismatch('allocation_shape', `the allocation document breaks its shape: ${problems.slice(0, 3).join('; ')}`, `epoch ${epoch} allocation (DECISIONS §8)`, problems);
}

function shapeProblems(epoch: number, doc: AllocationDocument): string[] {
  const problems: string[] = [];
  if (typeof doc !== 'object' || doc === null) return ['not an object'];
  if (doc.epoch !== epoch) problems.push(`epoch is ${String(doc.epoch)}, not ${epoch}`);
  for (const field of ['budget', 'carried_in', 'carried_over'] as const) if (!DECIMAL.test(String(doc[field]))) problems.push(`${field} is not a decimal`);
  if (typeof doc.recipients_at !== 'string' || Number.isNaN(Date.parse(doc.recipients_at))) problems.push('recipients_at is not a time');
  if (!Array.isArray(doc.entries)) return [...problems, 'entries is not a list'];
  doc.entries.forEach((entry, i) => {
    // Canonical spelling: a leaf's hotkey is compared with the tree's canonical one (the root check); here its alphabet and length.
    if (!SS58_42.test(String(entry.hotkey))) problems.push(`entries[${i}].hotkey is not an SS58 address of prefix 42`);
    if (i > 0 && !(doc.entries[i - 1].hotkey < entry.hotkey)) problems.push(`entries[${i}] is out of hotkey order`);
    if (!DECIMAL.test(String(entry.units)) || !DECIMAL.test(String(entry.cumulative))) problems.push(`entries[${i}] units or cumulative is not a decimal`);
    if (!Array.isArray(entry.competitions)) problems.push(`entries[${i}].competitions is not a list`);
    // The pool's own `local` scores are attested by the pool: checked for shape only (their sum is checked with the units).
    for (const c of entry.competitions ?? []) if (c.competition_id === 'local' && !(Number.isFinite(c.score) && c.score > 0)) problems.push(`entries[${i}] local score is not positive`);
  });
  return problems;
}

/** The snapshot's competitions and the pool's `local` one (scores from the allocation, pool-attested), as the split reads them. */
function competitionsOf(snapshot: RewardSnapshotDto, doc: AllocationDocument, accounts: CanonicalAccounts): { competitions: SplitCompetition[]; pools: { poolId: string; enabled: boolean; dedicatedContract: boolean }[] } {
  const scope = (s: RewardScope | undefined) => (s === RewardScope.SharedPool ? 'shared_pool' : 'competition_only');
  const competitions: SplitCompetition[] = snapshot.competitions.map((c) => ({
    competitionId: c.competition_id,
    slug: c.slug,
    weight: c.weight,
    poolId: c.target_pool_id,
    scope: scope(c.reward_scope),
    miners: c.miners.map((m) => ({ hotkey: accounts.spelling(m.miner_hotkey) ?? m.miner_hotkey, score: m.score })),
  }));
  const local = snapshot.reward_policy.local_competition;
  const localMiners = doc.entries.flatMap((entry) => entry.competitions.filter((c) => c.competition_id === 'local').map((c) => ({ hotkey: entry.hotkey, score: c.score })));
  competitions.push({ competitionId: 'local', slug: 'local', weight: local.enabled ? local.weight : 0, poolId: local.target_pool_id, scope: scope(local.reward_scope), miners: localMiners });
  const pools = snapshot.reward_policy.pools.map((p) => ({ poolId: p.pool_id, enabled: p.enabled, dedicatedContract: p.contract_hotkey_mode === ContractHotkeyMode.DedicatedContract }));
  return { competitions, pools };
}

export interface EpochInputs {
  epoch: number;
  document: AllocationDocument;
  /** The snapshot the coordinator served under the document's `snapshot_sha256`; null when it never served one. */
  snapshot: RewardSnapshotDto | null;
  previous: PreviousEpoch;
  /** Each entry hotkey's signed recipient records, oldest first. */
  recipients: ReadonlyMap<string, readonly RecipientRecord[]>;
  contract: ContractView;
}

/** Every check after the document's own: snapshot, cumulative, units, recipients, root. */
export function judgeEpoch(input: EpochInputs): Verified | Mismatch {
  return stageJudgement(input).finish();
}

/** A judgement whose signature-free checks are done: `finish` runs the recipient check and answers the first failing check in CHECKS order. */
export interface StagedJudgement {
  finish(): Verified | Mismatch;
}

/**
 * Runs every check that needs no recipient signature (snapshot, cumulative, units, and the root
 * rebuilt from the leaves) now, so a caller can run it while the signatures are checked on worker
 * threads; `finish` then runs the recipient check (reading the verdicts those threads reached) and
 * answers exactly what `judgeEpoch` answers: the first failing check in CHECKS order, or `verified`.
 */
export function stageJudgement(input: EpochInputs): StagedJudgement {
  const accounts = new CanonicalAccounts();
  const early = splitChecks(input, accounts);
  if ('result' in early) return { finish: () => early };
  const root = rootCheck(input, accounts);
  return {
    finish: () => {
      const recipients = recipientCheck(input);
      if (recipients !== null) return recipients;
      return root ?? { result: 'verified', cumulative: early, carriedOver: BigInt(input.document.carried_over) };
    },
  };
}

/** Snapshot, cumulative and units: the cumulative amounts when they hold, else the first mismatch. */
function splitChecks(input: EpochInputs, accounts: CanonicalAccounts): Map<string, bigint> | Mismatch {
  const { document: doc, previous } = input;
  if (input.snapshot === null) return mismatch('snapshot_served', 'the coordinator never served the snapshot the allocation names', 'a snapshot served by the coordinator', doc.snapshot_sha256);

  const cumulative = checkCumulative(doc, previous);
  if ('result' in cumulative) return cumulative;

  const { competitions, pools } = competitionsOf(input.snapshot, doc, accounts);
  const split = splitEpoch(BigInt(doc.budget) + BigInt(doc.carried_in), competitions, pools);
  if (split.carried.toString() !== doc.carried_over) return mismatch('units', 'the carried-over units differ from the recomputed split', split.carried.toString(), doc.carried_over);
  for (const entry of doc.entries) {
    const units = (split.units.get(entry.hotkey) ?? 0n).toString();
    if (units !== entry.units) return mismatch('units', `hotkey ${entry.hotkey}: its units differ from the recomputed split`, units, entry.units);
  }
  for (const [hotkey, units] of split.units) {
    if (units > 0n && !cumulative.has(hotkey)) return mismatch('units', `hotkey ${hotkey} earned units the allocation leaves out`, units.toString(), null);
  }
  return cumulative;
}

/** Each leaf's recipient is the newest one its miner signed by the rollover; null when all are. */
function recipientCheck(input: EpochInputs): Mismatch | null {
  const doc = input.document;
  const at = Date.parse(doc.recipients_at);
  for (const entry of doc.entries) {
    const expected = expectedRecipient(entry.hotkey, input.recipients.get(entry.hotkey) ?? [], at);
    if (expected !== entry.recipient_coldkey) {
      return mismatch('recipients', `hotkey ${entry.hotkey}: the leaf's recipient is not the newest one the miner signed by ${doc.recipients_at}`, expected, entry.recipient_coldkey);
    }
  }
  return null;
}

/** The leaves spelled canonically and giving the contract's root, leaf count and total; null when they do. */
function rootCheck(input: EpochInputs, accounts: CanonicalAccounts): Mismatch | null {
  const leaves = leavesOf(input.document.entries);
  let rebuilt = canonicalTree(input.epoch, leaves, accounts);
  if (rebuilt === null) {
    const tree = buildClaimEpoch(input.epoch, leaves);
    const respelled = tree.entries.findIndex((entry, i) => entry.hotkey !== leaves[i].hotkey || entry.recipientColdkey !== leaves[i].recipientColdkey);
    if (respelled >= 0) return mismatch('allocation_shape', `entry ${leaves[respelled].hotkey} is not spelled canonically (SS58, prefix 42)`, tree.entries[respelled].hotkey, leaves[respelled].hotkey);
    rebuilt = { root: tree.root, num_of_leaves: tree.entries.length, total_rao: tree.totalAmount.toString() };
  }
  const published = { root: input.contract.root.toLowerCase(), num_of_leaves: input.contract.numOfLeaves, total_rao: input.contract.totalRao.toString() };
  if (rebuilt.root.toLowerCase() !== published.root || rebuilt.num_of_leaves !== published.num_of_leaves || rebuilt.total_rao !== published.total_rao) {
    return mismatch('root', "the allocation's leaves do not give the contract's root, leaf count and total", rebuilt, published);
  }
  return null;
}

/** Each entry's cumulative is the previous one plus its units; no earlier hotkey is dropped; carried_in is what the previous epoch carried over. */
function checkCumulative(doc: AllocationDocument, previous: PreviousEpoch): Map<string, bigint> | Mismatch {
  if (previous.epoch !== null && doc.carried_in !== previous.carriedOver.toString()) {
    return mismatch('cumulative', `carried_in differs from what epoch ${previous.epoch} carried over`, previous.carriedOver.toString(), doc.carried_in);
  }
  const next = new Map<string, bigint>();
  for (const entry of doc.entries) {
    const expected = (previous.cumulative.get(entry.hotkey) ?? 0n) + BigInt(entry.units);
    if (expected.toString() !== entry.cumulative) {
      return mismatch('cumulative', `hotkey ${entry.hotkey}: cumulative is not epoch ${previous.epoch ?? 'none'}'s plus this epoch's units`, expected.toString(), entry.cumulative);
    }
    next.set(entry.hotkey, expected);
  }
  for (const [hotkey, amount] of previous.cumulative) {
    if (amount > 0n && !next.has(hotkey)) return mismatch('cumulative', `hotkey ${hotkey} had a cumulative of ${amount} and is missing`, amount.toString(), null);
  }
  return next;
}

const U64_MAX = (1n << 64n) - 1n;

/**
 * What `buildClaimEpoch` answers for leaves that are all spelled canonically and in strict hotkey order
 * (as the shape check required of the entries): the same leaves (`encodeClaimLeaf`, index = position)
 * and `MerkleTree` of @rcs/merkle, without its SS58 re-encoding of every account. Null for any other
 * leaves, which then go through `buildClaimEpoch` itself (its spelling mismatch or its error).
 */
export function canonicalTree(epoch: number, leaves: readonly { hotkey: string; recipientColdkey: string; amount: bigint }[], accounts = new CanonicalAccounts()): { root: string; num_of_leaves: number; total_rao: string } | null {
  if (!Number.isSafeInteger(epoch) || epoch < 0) return null;
  const encoded: Uint8Array[] = new Array<Uint8Array>(leaves.length);
  let total = 0n;
  for (let index = 0; index < leaves.length; index += 1) {
    const leaf = leaves[index];
    if (index > 0 && !(leaves[index - 1].hotkey < leaf.hotkey)) return null;
    const hotkey = accounts.id(leaf.hotkey);
    const recipient = accounts.id(leaf.recipientColdkey);
    if (hotkey === null || recipient === null) return null;
    if (leaf.amount < 0n || leaf.amount > U64_MAX) return null; // the library's own error, in its order
    encoded[index] = encodeClaimLeaf({ epoch, index, hotkey, recipientColdkey: recipient, amount: leaf.amount });
    total += leaf.amount;
  }
  return { root: toHex(MerkleTree.fromLeaves(encoded).root), num_of_leaves: leaves.length, total_rao: total.toString() };
}

function leavesOf(entries: readonly AllocationEntry[]): { hotkey: string; recipientColdkey: string; amount: bigint }[] {
  return entries.flatMap((e) => (e.recipient_coldkey === null ? [] : [{ hotkey: e.hotkey, recipientColdkey: e.recipient_coldkey, amount: BigInt(e.cumulative) }]));
}
