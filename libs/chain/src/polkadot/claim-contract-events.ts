import type { DecodedEvent } from '@polkadot/api-contract/types';
import type { Codec } from '@polkadot/types/types';
import { toSs58 } from '../address';
import type { ClaimContractEvent } from '../ports/claim-contract.port';

/** One decoded contract event in the port's terms; events the pool does not read are dropped. */
export function contractEventOf(decoded: DecodedEvent): ClaimContractEvent[] {
  const value: Record<string, Codec> = {};
  decoded.event.args.forEach((arg, i) => {
    value[arg.name] = decoded.args[i];
  });
  const num = (name: string): number => Number(value[name].toString());
  const big = (name: string): bigint => BigInt(value[name].toString());
  const account = (name: string): string => toSs58(value[name].toU8a());
  // ink! 5 names an event by its path, `merklepool::merklepool::Claimed`.
  switch (decoded.event.identifier.split('::').at(-1) ?? '') {
    case 'EpochPublished':
      return [{ name: 'EpochPublished', epoch: num('epoch'), root: value['root'].toHex(), totalRao: big('totalRao'), uri: value['uri'].toString() }];
    case 'Claimed':
      return [{ name: 'Claimed', epoch: num('epoch'), index: num('index'), hotkey: account('hotkey'), recipient: account('recipient'), amountRao: big('amount') }];
    case 'Challenged':
      return [{ name: 'Challenged', epoch: num('epoch'), evidenceHash: value['evidenceHash'].toHex(), challenger: account('challenger') }];
    case 'ChallengeResolved':
      return [{ name: 'ChallengeResolved', epoch: num('epoch'), slashed: value['slashed'].toJSON() === true, resolver: account('resolver') }];
    default:
      return [];
  }
}
