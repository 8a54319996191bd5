import { decodeSignature, recipientUpdateMessage, verifyDecoded } from '@rcs/auth';
import type { RecipientRecordDto } from '@rcs/contracts';
import { canonicalSpelling, publicKeyOf } from './ss58';

/** One record of `GET /api/v1/miners/recipient-coldkey/{hotkey}/history`. */
export type RecipientRecord = RecipientRecordDto;

/** The fields of a record its signature check reads. */
export type SignedFields = Pick<RecipientRecord, 'timestamp' | 'signed_coldkey' | 'recipient_coldkey' | 'signature'>;

/** Records judged already (a record never changes, so an epoch after the first checks only new ones); bounded, oldest forgotten first. */
const judged = new Map<string, boolean>();
const JUDGED_MAX = 1_000_000;

/** A record's identity: every byte its verdict depends on (the hotkey it is served under and the record's own fields). */
export function recordKey(hotkey: string, record: RecipientRecord): string {
  return `${hotkey}|${record.timestamp}|${record.signed_coldkey}|${record.recipient_coldkey}|${record.signature}`;
}

/** The check itself: the miner hotkey signed `recipient_coldkey:update:{timestamp}:{signed_coldkey}` (DECISIONS §2 Pool), and the record names the coldkey it signed. */
export function checkRecord(hotkey: string, record: SignedFields): boolean {
  if (canonicalSpelling(record.signed_coldkey) !== record.recipient_coldkey) return false;
  // `verifySignature` of @rcs/auth, with the hotkey read by the verifier's fast SS58 reader.
  const signature = decodeSignature(record.signature);
  const publicKey = signature && publicKeyOf(hotkey);
  return signature !== null && publicKey !== null && verifyDecoded(recipientUpdateMessage(record.timestamp, record.signed_coldkey), signature, publicKey);
}

/** The verdict remembered for a record, or undefined when it was never judged in this process. */
export function judgedVerdict(key: string): boolean | undefined {
  return judged.get(key);
}

/** Remembers a record's verdict (reached here, by a signature worker, or read back from the verifier's database). */
export function rememberVerdict(key: string, valid: boolean): void {
  if (!judged.has(key) && judged.size >= JUDGED_MAX) judged.delete(judged.keys().next().value as string);
  judged.set(key, valid);
}

/** The miner hotkey signed this record and it names the coldkey it stores; remembered once judged. */
export function signedByMiner(hotkey: string, record: RecipientRecord): boolean {
  const key = recordKey(hotkey, record);
  const known = judged.get(key);
  if (known !== undefined) return known;
  const valid = checkRecord(hotkey, record);
  rememberVerdict(key, valid);
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
