import { clientAddress } from './client-address';
import { TrustedProxies } from './trusted-proxies';

describe('clientAddress', () => {
  const proxies = TrustedProxies.parse(['10.0.0.0/8', '127.0.0.1']).proxies;

  it('is the peer when the peer is no trusted proxy, whatever X-Forwarded-For claims', () => {
    expect(clientAddress('203.0.113.7', '198.51.100.1', proxies)).toBe('203.0.113.7');
    expect(clientAddress('::ffff:203.0.113.7', undefined, proxies)).toBe('203.0.113.7');
    expect(clientAddress('2001:DB8::1', '198.51.100.1', TrustedProxies.parse([]).proxies)).toBe('2001:db8::1');
  });

  it('is the nearest forwarded hop that is no trusted proxy, read from the right', () => {
    expect(clientAddress('10.0.0.2', '198.51.100.1', proxies)).toBe('198.51.100.1');
    // A client's own claim (the leftmost hop) is not believed: the trusted proxy vouches only for its peer.
    expect(clientAddress('10.0.0.2', '192.0.2.99, 198.51.100.1, 10.0.0.3', proxies)).toBe('198.51.100.1');
    expect(clientAddress('::ffff:127.0.0.1', ['192.0.2.99', '::ffff:198.51.100.1'], proxies)).toBe('198.51.100.1');
  });

  it('is the leftmost hop when every hop is a trusted proxy, and the peer when there is no header', () => {
    expect(clientAddress('10.0.0.2', '10.0.0.9, 10.0.0.3', proxies)).toBe('10.0.0.9');
    expect(clientAddress('10.0.0.2', undefined, proxies)).toBe('10.0.0.2');
  });

  it('stops at a hop that is no address: the proxy that passed it on is the client', () => {
    expect(clientAddress('10.0.0.2', 'garbage, 10.0.0.3', proxies)).toBe('10.0.0.3');
    expect(clientAddress('10.0.0.2', '198.51.100.1:443', proxies)).toBe('10.0.0.2');
  });
});
