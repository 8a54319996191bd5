import { addressAllowed, classifyAddress } from './address-policy';

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'shared'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fd00::1', 'unique-local'],
    ['fc12:3456::1', 'unique-local'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['::ffff:127.0.0.1', 'reserved'],
    ['::ffff:8.8.8.8', 'reserved'],
    ['64:ff9b::a00:1', 'reserved'],
    ['2002:a00:1::', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.10', 'reserved'],
    ['not-an-ip', 'invalid'],
  ])('%s is %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it('admits only public addresses unless private ones are allowed (never an invalid one)', () => {
    expect(addressAllowed('8.8.8.8', false)).toBe(true);
    expect(addressAllowed('127.0.0.1', false)).toBe(false);
    expect(addressAllowed('127.0.0.1', true)).toBe(true);
    expect(addressAllowed('nope', true)).toBe(false);
  });
});
