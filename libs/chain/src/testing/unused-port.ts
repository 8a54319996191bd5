import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

/** A loopback port nothing listens on (it was free a moment ago), for "dead endpoint" tests. */
export async function unusedLocalPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
