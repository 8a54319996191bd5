import type { ApiPromise } from '@polkadot/api';
import { ChainUnavailableError } from '../errors';

type StorageEntry = ApiPromise['query'][string][string];

/** A storage entry the runtime metadata declares, or undefined when the runtime has no such item. */
export function findStorage(api: ApiPromise, pallet: string, item: string): StorageEntry | undefined {
  const section = api.query[pallet] as ApiPromise['query'][string] | undefined;
  return section?.[item];
}

/** A storage entry this adapter depends on; a runtime without it is not the chain we expect. */
export function storage(api: ApiPromise, pallet: string, item: string): StorageEntry {
  const entry = findStorage(api, pallet, item);
  if (!entry) throw new ChainUnavailableError(`the chain's runtime has no storage item ${pallet}.${item}`);
  return entry;
}
