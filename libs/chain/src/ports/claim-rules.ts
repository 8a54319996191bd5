import { toSs58 } from '../address';
import type { ClaimContractErrorCode, ClaimData, ContractEpoch } from './claim-contract.port';

/** A refusal the contract's state explains: its code and the sentence both adapters give for it. */
export interface ClaimRefusal {
  code: ClaimContractErrorCode;
  why: string;
}

/** What a claim is checked against: the contract's state when it is tried. */
export interface ClaimState {
  /** The claim's epoch as the contract holds it; null when it is not published. */
  epoch: ContractEpoch | null;
  /** The latest published epoch; null before the first. */
  latest: number | null;
  block: number;
  /** Rao the hotkey has claimed so far, over every epoch (amounts are cumulative). */
  claimed: bigint;
}

/**
 * Why the contract refuses `data` in `state` (DECISIONS §8), in the contract's order, or null when it
 * takes it. The dev contract throws these; the chain adapter explains a refused call with them.
 * `proofLeads` checks the proof against the epoch's root, each adapter with the leaf it holds.
 */
export function claimRefusal(data: ClaimData, state: ClaimState, proofLeads: (epoch: ContractEpoch) => boolean): ClaimRefusal | null {
  const { epoch, latest, block, claimed } = state;
  if (epoch === null) return refusal('unknown_epoch', data.epoch);
  if (latest !== data.epoch) return { code: 'epoch_not_claimable', why: `epoch ${data.epoch} is superseded by epoch ${latest}` };
  if (epoch.disputed) return refusal('claims_locked', data.epoch);
  if (block < epoch.claimsOpenAt) return { code: 'claims_not_open', why: `claims of epoch ${data.epoch} open at block ${epoch.claimsOpenAt}, now ${block}` };
  if (!proofLeads(epoch)) return { code: 'invalid_proof', why: `the proof does not lead leaf ${data.index} to the root of epoch ${data.epoch}` };
  if (data.amount <= claimed) return { code: 'nothing_to_claim', why: `hotkey ${toSs58(data.hotkey)} has claimed ${claimed} of ${data.amount} rao` };
  return null;
}

/** Why `challenge_epoch` is refused, or null. */
export function challengeRefusal(epochNumber: number, epoch: ContractEpoch | null): ClaimRefusal | null {
  if (epoch === null) return refusal('unknown_epoch', epochNumber);
  return epoch.disputed ? refusal('already_disputed', epochNumber) : null;
}

/** Why `resolve_challenge` is refused, or null. */
export function resolveRefusal(epochNumber: number, epoch: ContractEpoch | null): ClaimRefusal | null {
  if (epoch === null) return refusal('unknown_epoch', epochNumber);
  return epoch.disputed ? null : refusal('not_disputed', epochNumber);
}

/** The sentences of the refusals an epoch's state alone explains; the dev contract's scripts answer these codes too. */
export const EPOCH_REFUSALS = {
  unknown_epoch: (epoch: number) => `epoch ${epoch} is not published`,
  already_disputed: (epoch: number) => `epoch ${epoch} is already disputed`,
  not_disputed: (epoch: number) => `epoch ${epoch} has no active challenge`,
  claims_locked: (epoch: number) => `epoch ${epoch} is disputed`,
} satisfies Partial<Record<ClaimContractErrorCode, (epoch: number) => string>>;

function refusal(code: keyof typeof EPOCH_REFUSALS, epoch: number): ClaimRefusal {
  return { code, why: EPOCH_REFUSALS[code](epoch) };
}
