import { BlockList, isIP } from 'node:net';
import type { EnvReader } from '@rcs/config';

/**
 * The proxies whose `X-Forwarded-*` headers a service believes (`TRUSTED_PROXIES`): IP addresses and
 * CIDR ranges, IPv4 or IPv6. Anyone else could send those headers to make the service describe itself
 * with another host (a poisoned cache of `onboard.md` would send agents' signed requests elsewhere).
 */
export class TrustedProxies {
  private readonly list = new BlockList();

  private constructor(readonly entries: readonly string[]) {
    for (const entry of entries) {
      const [address, prefix] = entry.split('/');
      const family = isIP(address) === 4 ? 'ipv4' : 'ipv6';
      if (prefix === undefined) this.list.addAddress(address, family);
      else this.list.addSubnet(address, Number(prefix), family);
    }
  }

  /** Parses `10.0.0.0/8, 127.0.0.1, fd00::/8`; `problems` names every entry that is not an address or range. */
  static parse(entries: readonly string[]): { proxies: TrustedProxies; problems: string[] } {
    const valid: string[] = [];
    const problems: string[] = [];
    for (const entry of entries) {
      if (isAddressOrRange(entry)) valid.push(entry);
      else problems.push(entry);
    }
    return { proxies: new TrustedProxies(valid), problems };
  }

  /** Whether the peer address of a connection (as Node reports it, IPv4-mapped or not) is a trusted proxy. */
  includes(address: string | undefined): boolean {
    if (address === undefined || this.entries.length === 0) return false;
    const plain = plainAddress(address);
    const family = isIP(plain);
    return family !== 0 && this.list.check(plain, family === 4 ? 'ipv4' : 'ipv6');
  }
}

/** `TRUSTED_PROXIES`: a comma-separated list of proxy addresses and CIDR ranges; a bad entry is a config problem. */
export function readTrustedProxies(read: EnvReader, name = 'TRUSTED_PROXIES'): TrustedProxies {
  const { proxies, problems } = TrustedProxies.parse(read.list(name));
  for (const entry of problems) read.problems.push(`${name} entries must be IP addresses or CIDR ranges (got "${entry}")`);
  return proxies;
}

/** An IPv4-mapped IPv6 address (`::ffff:1.2.3.4`, as a dual-stack socket reports IPv4 peers) as plain IPv4; others as given, lower-case. */
export function plainAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1] : address.toLowerCase();
}

function isAddressOrRange(entry: string): boolean {
  const [address, prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}
