import { BlockList, isIP } from 'node:net';

/**
 * What an IP address is, for the rule that downloads reach public hosts only (the runner's downloads, and
 * the artifact URIs the coordinator accepts).
 */
export type AddressClass =
  | 'public'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'shared'
  | 'link-local'
  | 'unique-local'
  | 'multicast'
  | 'reserved'
  | 'invalid';

type Range = [address: string, prefix: number];

// IANA special-purpose registries (RFC 6890 and successors); anything that is not plainly public.
const RANGES: Record<Exclude<AddressClass, 'public' | 'invalid'>, { v4: Range[]; v6: Range[] }> = {
  unspecified: { v4: [['0.0.0.0', 8]], v6: [['::', 128]] },
  loopback: { v4: [['127.0.0.0', 8]], v6: [['::1', 128]] },
  private: { v4: [['10.0.0.0', 8], ['172.16.0.0', 12], ['192.168.0.0', 16]], v6: [] },
  shared: { v4: [['100.64.0.0', 10]], v6: [] },
  'link-local': { v4: [['169.254.0.0', 16]], v6: [['fe80::', 10]] },
  'unique-local': { v4: [], v6: [['fc00::', 7], ['fec0::', 10]] },
  multicast: { v4: [['224.0.0.0', 4]], v6: [['ff00::', 8]] },
  reserved: {
    v4: [
      ['192.0.0.0', 24],
      ['192.0.2.0', 24],
      ['198.18.0.0', 15],
      ['198.51.100.0', 24],
      ['203.0.113.0', 24],
      ['240.0.0.0', 4],
    ],
    // IPv4-mapped, NAT64, discard, Teredo, documentation and 6to4 can all lead back to an IPv4 address behind us.
    v6: [
      ['::ffff:0:0', 96],
      ['64:ff9b::', 96],
      ['64:ff9b:1::', 48],
      ['100::', 64],
      ['2001::', 32],
      ['2001:db8::', 32],
      ['2002::', 16],
    ],
  },
};

// One list per family: a BlockList matches IPv4 addresses against IPv4-mapped IPv6 ranges and back.
const LISTS = Object.entries(RANGES).map(([name, ranges]) => {
  const v4 = new BlockList();
  const v6 = new BlockList();
  for (const [address, prefix] of ranges.v4) v4.addSubnet(address, prefix, 'ipv4');
  for (const [address, prefix] of ranges.v6) v6.addSubnet(address, prefix, 'ipv6');
  return { name: name as AddressClass, v4, v6 };
});

export function classifyAddress(address: string): AddressClass {
  const version = isIP(address);
  if (version === 0) return 'invalid';
  const found = LISTS.find((lists) => (version === 4 ? lists.v4.check(address, 'ipv4') : lists.v6.check(address, 'ipv6')));
  return found?.name ?? 'public';
}

/** Whether a download may connect to this address. */
export function addressAllowed(address: string, allowPrivate: boolean): boolean {
  const kind = classifyAddress(address);
  return kind === 'public' || (allowPrivate && kind !== 'invalid');
}
