import { loadPayoutVerifierConfig } from './config';

const BASE = { CHAIN: 'dev', NETUID: '1' };

describe('payout verifier config', () => {
  it('uses VERIFIER_* key settings when set, else the validator’s', () => {
    expect(loadPayoutVerifierConfig({ ...BASE, VALIDATOR_SECRET_URI: '//Alice', VERIFIER_SECRET_URI: '//Verifier' }).identity).toMatchObject({ kind: 'uri', uri: '//Verifier' });
    expect(loadPayoutVerifierConfig({ ...BASE, VALIDATOR_SECRET_URI: '//Alice' }).identity).toMatchObject({ kind: 'uri', uri: '//Alice' });
    expect(loadPayoutVerifierConfig({ ...BASE, VERIFIER_WALLET_NAME: 'v', VERIFIER_WALLET_HOTKEY: 'h', VERIFIER_WALLET_PATH: '/w' }).identity).toEqual({
      kind: 'wallet',
      walletName: 'v',
      hotkeyName: 'h',
      walletPath: '/w',
    });
  });

  it('refuses to start without a key, and with a bootstrap it does not know', () => {
    expect(() => loadPayoutVerifierConfig(BASE)).toThrow(/no verifier identity/);
    expect(() => loadPayoutVerifierConfig({ ...BASE, VERIFIER_SECRET_URI: '//V', VERIFIER_BOOTSTRAP: 'oldest' })).toThrow(/VERIFIER_BOOTSTRAP/);
  });

  it('defaults: port 8500, history bootstrap, a pass every 30 s, the local coordinator and pool', () => {
    expect(loadPayoutVerifierConfig({ ...BASE, VERIFIER_SECRET_URI: '//V' })).toMatchObject({
      port: 8500,
      bootstrap: 'history',
      intervalSeconds: 30,
      coordinatorUrl: 'http://127.0.0.1:8000',
      poolUrl: 'http://127.0.0.1:8434',
      databaseUrl: null,
    });
  });
});
