import { blake2b } from '@noble/hashes/blake2';
import type { HexHash } from '@rcs/chain';
import type { ContractView, Mismatch } from './recompute';

/** What a mismatch's evidence names besides the failed check: the inputs, by hash and address. */
export interface EvidenceInputs {
  allocationUri: string;
  /** SHA-256 of the bytes the uri served. */
  allocationSha256: string;
  snapshotSha256: string | null;
  previousEpoch: number | null;
  contract: ContractView;
}

/**
 * The evidence document of a mismatch (DECISIONS §16): which check failed, what was expected and what
 * was published, and the inputs' hashes. Serialised once; `/evidence/{epoch}` serves these bytes and
 * `challenge_epoch` carries their BLAKE2b-256.
 */
export function evidenceDocument(epoch: number, mismatch: Mismatch, inputs: EvidenceInputs, verifier: string, judgedAt: Date): string {
  return JSON.stringify({
    epoch,
    result: 'mismatch',
    check: mismatch.check,
    message: mismatch.message,
    expected: mismatch.expected,
    published: mismatch.published,
    inputs: {
      allocation_uri: inputs.allocationUri,
      allocation_sha256: inputs.allocationSha256,
      snapshot_sha256: inputs.snapshotSha256,
      previous_epoch: inputs.previousEpoch,
      contract: { root: inputs.contract.root, num_of_leaves: inputs.contract.numOfLeaves, total_rao: inputs.contract.totalRao.toString() },
    },
    verifier,
    judged_at: judgedAt.toISOString(),
  });
}

/** `0x` + BLAKE2b-256 of the evidence bytes (UTF-8): the `evidence_hash` of `challenge_epoch`. */
export function evidenceHash(evidence: string): HexHash {
  return `0x${Buffer.from(blake2b(Buffer.from(evidence, 'utf8'), { dkLen: 32 })).toString('hex')}`;
}
