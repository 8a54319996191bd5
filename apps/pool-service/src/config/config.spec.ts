import { ConfigError } from '@rcs/config';
import { loadPoolServiceConfig } from './config';

const DEV = { CHAIN: 'dev', NETUID: '1' };
const POLKADOT = { CHAIN: 'polkadot', CHAIN_WS_URL: 'ws://127.0.0.1:9944', NETUID: '1' };

describe('loadPoolServiceConfig: CLAIM_SIMULATION', () => {
  it('is off by default, and may be turned on with the dev chain', () => {
    expect(loadPoolServiceConfig(DEV).payout.claimSimulation).toBe(false);
    expect(loadPoolServiceConfig({ ...DEV, CLAIM_SIMULATION: 'true' }).payout.claimSimulation).toBe(true);
    expect(loadPoolServiceConfig(POLKADOT).payout.claimSimulation).toBe(false);
  });

  it('refuses to start with CHAIN=polkadot: the simulated claim would sign claim_single with the publisher key on a real chain', () => {
    expect(() => loadPoolServiceConfig({ ...POLKADOT, CLAIM_SIMULATION: 'true' })).toThrow(ConfigError);
    expect(() => loadPoolServiceConfig({ ...POLKADOT, CLAIM_SIMULATION: 'true', PUBLISHER_SECRET_URI: '//Alice' })).toThrow(
      /CLAIM_SIMULATION=true is only for CHAIN=dev/,
    );
  });
});
