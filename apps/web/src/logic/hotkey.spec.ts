import { checkHotkey } from './hotkey';

// Alice's public key in the generic (42) and Polkadot (0) spellings, and Kusama's (2).
const ALICE_42 = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY';
const ALICE_0 = '15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5';
const ALICE_2 = 'HNZata7iMYWmk5RvZRTiAsSDhV8366zq2YGb3tLH5Upf74F';

describe('checkHotkey', () => {
  it('spells every network prefix of one key with prefix 42', () => {
    for (const spelling of [ALICE_42, ALICE_0, ALICE_2, `  ${ALICE_0} `]) expect(checkHotkey(spelling)).toEqual({ ok: true, canonical: ALICE_42 });
  });
  it('says why a text is no SS58 address', () => {
    expect(checkHotkey('')).toEqual({ ok: false, reason: 'enter a hotkey (an SS58 address)' });
    expect(checkHotkey(`${ALICE_42.slice(0, -1)}R`)).toMatchObject({ ok: false, reason: expect.stringContaining('checksum') });
    expect(checkHotkey('5GrwvaEF0OIl')).toMatchObject({ ok: false, reason: expect.stringContaining('characters') });
    expect(checkHotkey('5Grwva')).toMatchObject({ ok: false, reason: expect.stringContaining('length') });
  });
});
