import { decodeAddress, encodeAddress } from '@polkadot/util-crypto';
import { InvalidAddressError } from './errors';

/** Generic Substrate SS58 prefix, which Bittensor uses. */
export const SS58_PREFIX = 42;

/** The 32-byte account id behind an SS58 address of any prefix. */
export function accountIdOf(address: string): Uint8Array {
  let accountId: Uint8Array;
  try {
    accountId = decodeAddress(address);
  } catch {
    throw new InvalidAddressError(address);
  }
  if (accountId.length !== 32) throw new InvalidAddressError(address);
  return accountId;
}

/** The same account written with prefix 42, so equal accounts compare equal as strings. */
export function toSs58(addressOrAccountId: string | Uint8Array): string {
  const accountId = typeof addressOrAccountId === 'string' ? accountIdOf(addressOrAccountId) : addressOrAccountId;
  return encodeAddress(accountId, SS58_PREFIX);
}

/** The all-zero AccountId, which storage like `SubtensorModule::Owner` holds by default: no account. */
export function isZeroAccount(addressOrAccountId: string | Uint8Array): boolean {
  const accountId = typeof addressOrAccountId === 'string' ? accountIdOf(addressOrAccountId) : addressOrAccountId;
  return accountId.every((byte) => byte === 0);
}
