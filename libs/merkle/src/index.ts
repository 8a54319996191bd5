export { fromHex, toHex, type Hex } from './bytes';
export { MerkleInputError } from './errors';
export { accountIdOf, CLAIM_LEAF_BYTES, decodeClaimLeaf, encodeClaimLeaf, type AccountInput, type ClaimLeaf } from './leaf';
export { accountIdToSs58, ss58ToAccountId } from './ss58';
export { emptyRoot, HASH_BYTES, hashLeaf, hashNode, LEAF_PREFIX, merkleRoot, MerkleTree, NODE_PREFIX, verifyAuditPath } from './tree';
export { buildClaimEpoch, verifyClaimPackage, type ClaimEntry, type ClaimEpochTree, type ClaimPackage, type ClaimPackageInput, type ClaimPackageVerdict, type TrustedEpoch } from './claim-epoch';
export {
  cumulate,
  largestRemainder,
  splitEpoch,
  type CompetitionUnits,
  type EpochSplit,
  type RewardScopeName,
  type SplitCompetition,
  type SplitMiner,
  type SplitPoolPolicy,
} from './epoch-split';
