import type { ApiPromise } from '@polkadot/api';
import type { SubmittableExtrinsic } from '@polkadot/api/types';
import type { KeyringPair } from '@polkadot/keyring/types';
import type { DispatchError } from '@polkadot/types/interfaces';
import { ExtrinsicFailedError } from '../errors';
import type { WeightsInclusion } from '../ports/subtensor.port';

/**
 * Signs and submits `extrinsic`, then waits until it is in a block. Resolves only when the block's
 * events say `ExtrinsicSuccess`; a dispatch error (`ExtrinsicFailed`), an invalid, dropped or
 * usurped transaction, or no block within `timeoutMs` rejects with `ExtrinsicFailedError`.
 */
export async function submitAndWatch(api: ApiPromise, extrinsic: SubmittableExtrinsic<'promise'>, signer: KeyringPair, timeoutMs: number): Promise<WeightsInclusion> {
  let unsubscribe: (() => void) | null = null;
  let settled = false;
  let timer: NodeJS.Timeout | undefined;
  let txHash: string | null = null;
  try {
    return await new Promise<WeightsInclusion>((resolve, reject) => {
      timer = setTimeout(() => reject(new ExtrinsicFailedError('timeout', `not in a block within ${timeoutMs} ms`, txHash)), timeoutMs);
      extrinsic
        .signAndSend(signer, (result) => {
          txHash = result.txHash.toHex();
          const { status } = result;
          if (status.isInvalid) reject(new ExtrinsicFailedError('invalid', 'the transaction pool refused the extrinsic as invalid', txHash));
          else if (status.isDropped) reject(new ExtrinsicFailedError('dropped', 'the transaction pool dropped the extrinsic', txHash));
          else if (status.isUsurped) reject(new ExtrinsicFailedError('dropped', 'another transaction with the same nonce replaced the extrinsic', txHash));
          else if (status.isInBlock || status.isFinalized) {
            const blockHash = (status.isInBlock ? status.asInBlock : status.asFinalized).toHex();
            if (result.internalError) {
              reject(new ExtrinsicFailedError('dispatch_error', `cannot read the outcome from block ${blockHash}: ${result.internalError.message}`, txHash));
              return;
            }
            if (result.dispatchError) {
              reject(new ExtrinsicFailedError('dispatch_error', describeDispatchError(api, result.dispatchError), txHash));
              return;
            }
            if (!result.events.some(({ event }) => api.events.system.ExtrinsicSuccess.is(event))) {
              reject(new ExtrinsicFailedError('dispatch_error', 'the block holds no ExtrinsicSuccess event for the extrinsic', txHash));
              return;
            }
            api.rpc.chain.getHeader(blockHash).then(
              (header) => resolve({ txHash: txHash as string, block: header.number.toNumber(), blockHash }),
              (error: unknown) => reject(error),
            );
          }
        })
        .then(
          (stop) => {
            // The outcome may arrive before the subscription handle does: stop watching at once then.
            if (settled) stop();
            else unsubscribe = stop;
          },
          (error: unknown) => reject(error instanceof ExtrinsicFailedError ? error : new ExtrinsicFailedError('invalid', errorMessage(error), txHash)),
        );
    });
  } finally {
    settled = true;
    clearTimeout(timer);
    (unsubscribe as (() => void) | null)?.();
  }
}

/** `SubtensorModule.SettingWeightsTooFast: <docs>` for a module error, else the error's kind. */
function describeDispatchError(api: ApiPromise, error: DispatchError): string {
  if (error.isModule) {
    try {
      const meta = api.registry.findMetaError(error.asModule);
      return `${meta.section}.${meta.name}${meta.docs.length > 0 ? `: ${meta.docs.join(' ').trim()}` : ''}`;
    } catch {
      return `module error ${error.asModule.toString()}`;
    }
  }
  return error.type;
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
