import { encodeAddress } from '@polkadot/util-crypto';
import { ConfigError } from '@rcs/http';
import { loadCoordinatorConfig } from './config';

const BASE = { CHAIN: 'dev', NETUID: '1' };

describe('loadCoordinatorConfig: SCORE_EMA_DAYS', () => {
  it('defaults to 10 days', () => {
    expect(loadCoordinatorConfig(BASE).scoreEmaDays).toBe(10);
  });

  it.each([
    ['0.5', 0.5],
    ['30', 30],
    [' 7 ', 7],
  ])('reads %p as %p', (raw, days) => {
    expect(loadCoordinatorConfig({ ...BASE, SCORE_EMA_DAYS: raw }).scoreEmaDays).toBe(days);
  });

  it.each(['0', '-1', 'ten', 'Infinity', 'NaN'])('refuses %p', (raw) => {
    expect(() => loadCoordinatorConfig({ ...BASE, SCORE_EMA_DAYS: raw })).toThrow(ConfigError);
    expect(() => loadCoordinatorConfig({ ...BASE, SCORE_EMA_DAYS: raw })).toThrow(/SCORE_EMA_DAYS must be a number above 0/);
  });
});

describe('loadCoordinatorConfig: VALIDATOR_HOTKEYS', () => {
  const key = new Uint8Array(32).fill(7);
  const canonical = encodeAddress(key, 42);

  it('keeps each entry in its canonical spelling (prefix 42), once per key', () => {
    const raw = `${encodeAddress(key, 2)}, ${encodeAddress(key, 7)},${canonical}`;
    expect(loadCoordinatorConfig({ ...BASE, VALIDATOR_HOTKEYS: raw }).validatorHotkeys).toEqual([canonical]);
  });

  it('refuses an entry that is not an SS58 address', () => {
    expect(() => loadCoordinatorConfig({ ...BASE, VALIDATOR_HOTKEYS: `${canonical},0x${'ab'.repeat(32)}` })).toThrow(
      /VALIDATOR_HOTKEYS entries must be SS58 addresses/,
    );
  });
});

describe('loadCoordinatorConfig: TRUSTED_PROXIES', () => {
  it('trusts nobody by default, and the listed addresses and ranges when set', () => {
    expect(loadCoordinatorConfig(BASE).trustedProxies.includes('127.0.0.1')).toBe(false);
    const proxies = loadCoordinatorConfig({ ...BASE, TRUSTED_PROXIES: '10.0.0.0/8, ::1' }).trustedProxies;
    expect([proxies.includes('10.2.3.4'), proxies.includes('::1'), proxies.includes('192.168.0.1')]).toEqual([true, true, false]);
  });

  it('names the proxies whose X-Forwarded-For the event stream limits believe too', () => {
    const config = loadCoordinatorConfig({ ...BASE, TRUSTED_PROXIES: '10.0.0.0/8' });
    expect(config.events.trustedProxies).toBe(config.trustedProxies);
  });

  it('refuses an entry that is no address or range', () => {
    expect(() => loadCoordinatorConfig({ ...BASE, TRUSTED_PROXIES: '10.0.0.0/8,proxy.internal' })).toThrow(
      /TRUSTED_PROXIES entries must be IP addresses or CIDR ranges \(got "proxy.internal"\)/,
    );
  });
});

describe('loadCoordinatorConfig: DATABASE_PREPARED_STATEMENTS', () => {
  it('prepares the hot statements by default, and not when turned off', () => {
    expect(loadCoordinatorConfig(BASE).databasePreparedStatements).toBe(true);
    expect(loadCoordinatorConfig({ ...BASE, DATABASE_PREPARED_STATEMENTS: 'off' }).databasePreparedStatements).toBe(false);
  });

  it('refuses a value that is no switch', () => {
    expect(() => loadCoordinatorConfig({ ...BASE, DATABASE_PREPARED_STATEMENTS: 'sometimes' })).toThrow(/DATABASE_PREPARED_STATEMENTS must be on\/off or true\/false/);
  });
});
