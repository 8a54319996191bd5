import { isIP } from 'node:net';
import { plainAddress, TrustedProxies } from './trusted-proxies';

/**
 * The address a request comes from, for per-client limits: the peer of the connection, or, when the
 * peer is one of `TRUSTED_PROXIES`, the nearest `X-Forwarded-For` hop that is not. Hops are read
 * from the right (each proxy appends the address it was reached from), so what a client writes into
 * the header itself is believed only where a trusted proxy vouches for every hop after it. A hop that
 * is not an IP address ends the walk at the proxy that passed it on.
 */
export function clientAddress(peer: string | undefined, forwardedFor: string | string[] | undefined, proxies: TrustedProxies): string {
  let address = plainAddress(peer ?? 'unknown');
  if (!proxies.includes(address) || forwardedFor === undefined) return address;
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor).split(',');
  for (let i = hops.length - 1; i >= 0; i -= 1) {
    const hop = plainAddress(hops[i].trim());
    if (isIP(hop) === 0) return address;
    address = hop;
    if (!proxies.includes(address)) return address;
  }
  return address;
}
