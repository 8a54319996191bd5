import type { SubmittableExtrinsic } from '@polkadot/api/types';
import type { ContractSubmittableResult } from '@polkadot/api-contract/base/Contract';
import { ChainUnavailableError } from '../errors';
import type { ContractCaller } from '../ports/claim-contract.port';

/**
 * Signs and sends a contract call and settles at inclusion in a block (or finality): a transaction
 * the pool drops, or that is usurped or retracted, is `ChainUnavailableError` naming the message.
 */
export function includedInBlock(tx: SubmittableExtrinsic<'promise'>, signer: ContractCaller, label: string): Promise<ContractSubmittableResult> {
  return new Promise<ContractSubmittableResult>((resolve, reject) => {
    let settled = false;
    let unsubscribe: (() => void) | null = null;
    const settle = (finish: () => void): void => {
      if (settled) return;
      settled = true;
      unsubscribe?.();
      finish();
    };
    tx.signAndSend(signer, (result: ContractSubmittableResult) => {
      const { status } = result;
      if (status.isInvalid || status.isDropped || status.isUsurped || status.isRetracted || status.isFinalityTimeout) {
        settle(() => reject(new ChainUnavailableError(`claim contract ${label}: transaction ${status.type}`)));
      } else if (status.isInBlock || status.isFinalized) {
        settle(() => resolve(result));
      }
    }).then(
      (stop) => {
        unsubscribe = stop;
        if (settled) stop();
      },
      (error: unknown) => settle(() => reject(error)),
    );
  });
}
