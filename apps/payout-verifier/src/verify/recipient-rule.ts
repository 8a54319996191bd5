import { canonicalSs58, recipientUpdateMessage, verifySignature } from '@rcs/auth';
import type { RecipientRecordDto } from '@rcs/contracts';

/** One record of `GET /api/v1/miners/recipient-coldkey/{hotkey}/history`. */
export type RecipientRecord = RecipientRecordDto;

/** Records judged already (a record never changes, so an epoch after the first checks only new ones); bounded, oldest forgotten first. */
const judged = new Map<string, boolean>();
const JUDGED_MAX = 1_000_000;

/** The miner hotkey signed this record: `recipient_coldkey:update:{timestamp}:{signed_coldkey}` (DECISIONS §2 Pool), and it names the coldkey it stores. */
export function signedByMiner(hotkey: string, record: RecipientRecord): boolean {
  const key = `${hotkey}|${record.timestamp}|${record.signed_coldkey}|${record.recipient_coldkey}|${record.signature}`;
  const known = judged.get(key);
  if (known !== undefined) return known;
  const valid =
    canonicalSs58(record.signed_coldkey) === record.recipient_coldkey &&
    verifySignature(recipientUpdateMessage(record.timestamp, record.signed_coldkey), record.signature, hotkey);
  if (judged.size >= JUDGED_MAX) judged.delete(judged.keys().next().value as string);
  judged.set(key, valid);
  return valid;
}

/**
 * Who a leaf of `hotkey` must pay when its recipients were read at `at` (ms), DECISIONS §11: the newest
 * validly signed recipient stored through the governing routes, else the newest validly signed declared
 * coldkey (the root compatibility route), else nobody (no leaf). Records the miner did not sign count for nothing.
 */
export function expectedRecipient(hotkey: string, records: readonly RecipientRecord[], at: number): string | null {
  let recipient: string | null = null;
  let declared: string | null = null;
  for (const record of records) {
    if (Date.parse(record.recorded_at) > at || !signedByMiner(hotkey, record)) continue;
    if (record.kind === 'recipient') recipient = record.recipient_coldkey;
    else declared = record.recipient_coldkey;
  }
  return recipient ?? declared;
}
