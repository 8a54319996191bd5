import type { ClaimPackage } from '@rcs/merkle';
import { ClaimContractError, type ClaimContractErrorCode, type ClaimData } from '../ports/claim-contract.port';

/** The claim a miner sends for one package of an epoch. */
export function claimOf(pkg: ClaimPackage): ClaimData {
  return { epoch: pkg.epoch, index: pkg.index, hotkey: pkg.hotkey, recipientColdkey: pkg.recipient_coldkey, amount: BigInt(pkg.amount), proof: pkg.proof };
}

/** The code a contract message was refused with; a message that went through is a test failure. */
export async function refusal(work: Promise<unknown>): Promise<ClaimContractErrorCode> {
  try {
    await work;
  } catch (error) {
    if (error instanceof ClaimContractError) return error.code;
    throw error;
  }
  throw new TypeError('the contract accepted the message');
}
