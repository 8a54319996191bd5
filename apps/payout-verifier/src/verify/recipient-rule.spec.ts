import { u8aToHex } from '@polkadot/util';
import { canonicalSs58, cryptoReady, keypairFromUri, recipientUpdateMessage } from '@rcs/auth';
import { expectedRecipient, type RecipientRecord } from './recipient-rule';

/** DECISIONS §11 Recipients, as the verifier judges a leaf: the newest signed recipient, else the newest signed declaration. */
describe('expectedRecipient', () => {
  let hotkey: string;
  let record: (coldkey: string, kind: 'recipient' | 'declared', at: string, signer?: 'miner' | 'stranger') => RecipientRecord;
  let cold: string[];

  beforeAll(async () => {
    await cryptoReady();
    const [miner, stranger] = await Promise.all([keypairFromUri('//Rule//miner'), keypairFromUri('//Rule//stranger')]);
    cold = (await Promise.all(['//Rule//a', '//Rule//b', '//Rule//c'].map(keypairFromUri))).map((pair) => canonicalSs58(pair.address) as string);
    hotkey = miner.address;
    record = (coldkey, kind, at, signer = 'miner') => {
      const timestamp = String(Math.floor(Date.parse(at) / 1000));
      const pair = signer === 'miner' ? miner : stranger;
      return { recipient_coldkey: coldkey, signed_coldkey: coldkey, timestamp, signature: u8aToHex(pair.sign(recipientUpdateMessage(timestamp, coldkey))), route: 'r', kind, recorded_at: at };
    };
  });

  const AT = Date.parse('2026-01-01T12:00:00Z');

  it('the newest signed recipient governs; a later declaration never overrides it', () => {
    const records = [record(cold[0], 'declared', '2026-01-01T09:00:00Z'), record(cold[1], 'recipient', '2026-01-01T10:00:00Z'), record(cold[2], 'declared', '2026-01-01T11:00:00Z')];
    expect(expectedRecipient(hotkey, records, AT)).toBe(cold[1]);
  });

  it('a miner that only declared is paid to the newest declaration; one with nothing signed gets no leaf', () => {
    expect(expectedRecipient(hotkey, [record(cold[0], 'declared', '2026-01-01T09:00:00Z'), record(cold[2], 'declared', '2026-01-01T10:00:00Z')], AT)).toBe(cold[2]);
    expect(expectedRecipient(hotkey, [], AT)).toBeNull();
  });

  it('ignores records the miner did not sign, and records stored after the rollover read recipients', () => {
    const records = [record(cold[0], 'recipient', '2026-01-01T09:00:00Z'), record(cold[1], 'recipient', '2026-01-01T10:00:00Z', 'stranger'), record(cold[2], 'recipient', '2026-01-01T13:00:00Z')];
    expect(expectedRecipient(hotkey, records, AT)).toBe(cold[0]);
    const relabelled = { ...record(cold[0], 'recipient', '2026-01-01T11:00:00Z'), recipient_coldkey: cold[1] };
    expect(expectedRecipient(hotkey, [relabelled], AT)).toBeNull();
  });
});
