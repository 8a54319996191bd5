import dns from 'node:dns';

/**
 * Resolves `<name>.localhost` to 127.0.0.1, as RFC 6761 reserves it and browsers do, for resolvers
 * that do not (glibc without systemd-resolved). The gateway routes by host name, so the check's
 * requests must carry `coordinator.localhost` while reaching the loopback address.
 */
export function resolveLocalhostSubdomains(): void {
  const original = dns.lookup;
  const patched = function lookup(this: unknown, hostname: string, ...rest: unknown[]): unknown {
    const target = typeof hostname === 'string' && hostname.endsWith('.localhost') ? '127.0.0.1' : hostname;
    return (original as (...args: unknown[]) => unknown).call(this, target, ...rest);
  };
  (dns as { lookup: unknown }).lookup = patched;
}
