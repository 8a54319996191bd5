import type { ApiPromise } from '@polkadot/api';
import type { Enum, Result } from '@polkadot/types';
import type { DispatchError, WeightV2 } from '@polkadot/types/interfaces';
import type { Codec } from '@polkadot/types/types';
import { ClaimContractError, type ContractRefusal } from '../ports/claim-contract.port';
import type { ClaimRefusal } from '../ports/claim-rules';

/** One message executed without a transaction: its decoded `MessageResult` payload and whether it reverted. */
export interface DryRun {
  value: Codec;
  reverted: boolean;
  gasRequired: WeightV2;
}

/** A state-explained reason for a refusal (a domain code), or null when the state does not explain it. */
export type Explanation = ClaimRefusal | null;

/** Reads the contract's state after it refused, to say why (the contract itself only says `ReadFailed`/`WriteFailed` or traps). */
export type Explain = (api: ApiPromise) => Promise<Explanation>;

/** What pallet-contracts says when a call traps or runs out of gas (a `DispatchError` of the call, not an `Err` answer). */
export const DISPATCH_REFUSALS: Record<string, ContractRefusal> = {
  'contracts.ContractTrapped': 'contract_trapped',
  'contracts.ContractReverted': 'contract_reverted',
  'contracts.OutOfGas': 'out_of_gas',
};

/** `ReadWriteErrorCode` variants, the only error type the contract declares. */
const ERR_REFUSALS: Record<string, ContractRefusal> = { ReadFailed: 'read_failed', WriteFailed: 'write_failed' };

/** A mutating message answers `Result<(), ReadWriteErrorCode>`; its `Err`, or a revert without one, is the contract's refusal. */
export function refusalOf(label: string, run: DryRun): ClaimContractError | null {
  const outcome = run.value as Result<Codec, Enum> | Codec;
  const variant = 'isErr' in outcome && outcome.isErr ? (outcome as Result<Codec, Enum>).asErr.type : null;
  if (variant !== null) return refusedError(label, ERR_REFUSALS[variant] ?? 'contract_reverted', `Err(${variant})`);
  return run.reverted ? refusedError(label, 'contract_reverted', 'reverted') : null;
}

export function refusedError(label: string, refusal: ContractRefusal, how: string): ClaimContractError {
  return new ClaimContractError(refusal, `claim contract refused ${label}: ${how}`, { message: label, refusal });
}

/** The refusal as the state explains it (`epoch_exists`, `nothing_to_claim`, …), else the refusal itself. */
export async function explained(api: ApiPromise, refusal: ClaimContractError, explain: Explain): Promise<ClaimContractError> {
  // Out of gas says nothing about the state.
  if (refusal.code === 'out_of_gas') return refusal;
  // A read that itself fails explains nothing: the contract's own refusal stands.
  const explanation = await explain(api).catch((error: unknown) => {
    if (error instanceof ClaimContractError) return null;
    throw error;
  });
  if (explanation === null) return refusal;
  return new ClaimContractError(explanation.code, `${refusal.message}: ${explanation.why}`, refusal.refused);
}

/** A dispatch error as `section.Name` (e.g. `contracts.ContractTrapped`), else its type. */
export function dispatchErrorText(api: ApiPromise, error: DispatchError): string {
  if (error.isModule) {
    try {
      const { section, name } = api.registry.findMetaError(error.asModule);
      return `${section}.${name}`;
    } catch {
      return error.toString();
    }
  }
  return error.type;
}
