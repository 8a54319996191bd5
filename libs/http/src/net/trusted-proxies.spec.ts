import { TrustedProxies } from './trusted-proxies';

describe('TrustedProxies', () => {
  it('matches addresses and ranges of both families, IPv4-mapped peers included', () => {
    const { proxies, problems } = TrustedProxies.parse(['10.0.0.0/8', '127.0.0.1', 'fd00::/8']);
    expect(problems).toEqual([]);
    for (const address of ['10.1.2.3', '::ffff:10.9.9.9', '127.0.0.1', '::ffff:127.0.0.1', 'fd12::1']) {
      expect({ address, trusted: proxies.includes(address) }).toEqual({ address, trusted: true });
    }
    for (const address of ['11.0.0.1', '127.0.0.2', '::1', 'fe80::1', undefined, 'garbage']) {
      expect({ address, trusted: proxies.includes(address) }).toEqual({ address, trusted: false });
    }
  });

  it('trusts nobody when empty', () => {
    expect(TrustedProxies.parse([]).proxies.includes('127.0.0.1')).toBe(false);
  });

  it('names entries that are no address or range', () => {
    expect(TrustedProxies.parse(['10.0.0.0/33', 'proxy.local', '::1/129', '1.2.3.4/8/1', '::1/64']).problems).toEqual([
      '10.0.0.0/33',
      'proxy.local',
      '::1/129',
      '1.2.3.4/8/1',
    ]);
  });
});
