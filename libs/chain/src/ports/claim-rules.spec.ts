import type { ClaimData, ContractEpoch } from './claim-contract.port';
import { challengeRefusal, claimRefusal, resolveRefusal, type ClaimState } from './claim-rules';

const HOTKEY = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
const epoch: ContractEpoch = { root: `0x${'ab'.repeat(32)}`, numOfLeaves: 4, totalRao: 1000n, spentRao: 0n, disputed: false, claimsOpenAt: 10, bondRao: 0n };
const data: ClaimData = { epoch: 7, index: 2, hotkey: HOTKEY, recipientColdkey: HOTKEY, amount: 300n, proof: [] };
const open: ClaimState = { epoch, latest: 7, block: 12, claimed: 100n };
const leads = () => true;

describe('claimRefusal: what the contract refuses, in its order', () => {
  it('takes a claim of the latest, undisputed, open epoch whose proof leads to the root and that adds rao', () => {
    expect(claimRefusal(data, open, leads)).toBeNull();
  });

  it.each<[string, Partial<ClaimState>, boolean, string]>([
    ['unknown_epoch', { epoch: null }, true, 'epoch 7 is not published'],
    ['epoch_not_claimable', { latest: 8 }, true, 'epoch 7 is superseded by epoch 8'],
    ['claims_locked', { epoch: { ...epoch, disputed: true } }, true, 'epoch 7 is disputed'],
    ['claims_not_open', { block: 9 }, true, 'claims of epoch 7 open at block 10, now 9'],
    ['invalid_proof', {}, false, 'the proof does not lead leaf 2 to the root of epoch 7'],
    ['nothing_to_claim', { claimed: 300n }, true, `hotkey ${HOTKEY} has claimed 300 of 300 rao`],
  ])('%s', (code, change, proofLeads, why) => {
    expect(claimRefusal(data, { ...open, ...change }, () => proofLeads)).toEqual({ code, why });
  });

  it('names the first rule broken: a superseded epoch before a bad proof and nothing to claim', () => {
    expect(claimRefusal(data, { ...open, latest: 8, claimed: 300n }, () => false)?.code).toBe('epoch_not_claimable');
  });
});

describe('challenge and resolve refusals', () => {
  it('refuses to challenge an unknown or already disputed epoch', () => {
    expect(challengeRefusal(7, null)).toEqual({ code: 'unknown_epoch', why: 'epoch 7 is not published' });
    expect(challengeRefusal(7, { ...epoch, disputed: true })).toEqual({ code: 'already_disputed', why: 'epoch 7 is already disputed' });
    expect(challengeRefusal(7, epoch)).toBeNull();
  });

  it('refuses to resolve an epoch without an active challenge', () => {
    expect(resolveRefusal(7, null)).toEqual({ code: 'unknown_epoch', why: 'epoch 7 is not published' });
    expect(resolveRefusal(7, epoch)).toEqual({ code: 'not_disputed', why: 'epoch 7 has no active challenge' });
    expect(resolveRefusal(7, { ...epoch, disputed: true })).toBeNull();
  });
});
