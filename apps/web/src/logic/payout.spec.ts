import type { AllocationEntry, ClaimEpochDto, ClaimPackageDto, RecipientDto } from '@rcs/contracts';
import { claimableNow, classifyPayout } from './payout';

const epoch = { epoch: 7, status: 'published' } as ClaimEpochDto;
const recipient = { hotkey: 'h', recipient_coldkey: null, declared_coldkey: null, published_in_epoch: null, updated_at: null } as RecipientDto;
const entry = (cumulative: string) => ({ hotkey: 'h', recipient_coldkey: null, units: cumulative, cumulative, competitions: [] }) as AllocationEntry;

describe('classifyPayout', () => {
  it('tells an unknown hotkey, one that earned nothing and one that earned without a recipient apart', () => {
    const none = { epoch, recipient: null, entry: null, pkg: null, check: null, claimed: null };
    expect(classifyPayout({ ...none, epoch: null })).toEqual({ kind: 'no_epoch' });
    expect(classifyPayout(none)).toEqual({ kind: 'unknown_hotkey', epoch: 7 });
    expect(classifyPayout({ ...none, recipient })).toEqual({ kind: 'nothing_earned', epoch: 7, recipient });
    expect(classifyPayout({ ...none, entry: entry('0') })).toMatchObject({ kind: 'nothing_earned' });
    expect(classifyPayout({ ...none, entry: entry('5000') })).toEqual({ kind: 'no_recipient', epoch: 7, cumulative: '5000', recipient: null });
  });

  it('gives a leaf with what was claimed and what a claim pays now', () => {
    const pkg = { amount: '9000' } as ClaimPackageDto;
    const check = { ok: true as const, message: 'verified' };
    expect(classifyPayout({ epoch, recipient, entry: entry('9000'), pkg, check, claimed: '4000' })).toMatchObject({ kind: 'leaf', claimed: '4000', claimable: '5000' });
  });
});

describe('claimed and claimable amounts', () => {
  it('pays the leaf amount less what was claimed, only from the published epoch', () => {
    expect(claimableNow('123456789012345678901', '1', 'published')).toBe('123456789012345678900');
    expect(claimableNow('100', '150', 'published')).toBe('0');
    expect(claimableNow('100', null, 'published')).toBeNull();
    expect(claimableNow('100', '0', 'superseded')).toBe('0');
  });
});
