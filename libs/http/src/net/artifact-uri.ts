import { isIP } from 'node:net';
import { classifyAddress } from './address-policy';

/** Why an artifact URI's authority is refused. */
export type ArtifactUriProblem =
  | { kind: 'credentials' }
  | { kind: 'host'; host: string; reason: Exclude<ReturnType<typeof classifyAddress>, 'public'> | 'local_name' };

// Names that lead to this machine or a private network whatever public DNS says (RFC 6761, 6762, 8375),
// and `.internal` (cloud metadata and private zones).
const LOCAL_NAME = /(?:^|\.)(?:localhost|local|internal|home\.arpa)$/i;

/**
 * What in an absolute http(s) URI names no public place to download from: credentials in the authority,
 * or a host written as a non-public IP address (in any form WHATWG parsing reads as one: `0x7f000001`,
 * `127.1`, `[::1]`), `localhost`, a local-only domain or a single-label name. Null when neither, and for
 * URIs that do not parse (their own rule refuses them). DNS is not consulted: the runner checks the
 * addresses a name resolves to when it downloads.
 */
export function artifactUriProblem(uri: string): ArtifactUriProblem | null {
  if (!URL.canParse(uri)) return null;
  const url = new URL(uri);
  const afterScheme = uri.slice(uri.indexOf(':') + 1).replace(/^\/\//, '');
  const authority = afterScheme.split(/[/?#\\]/, 1)[0];
  if (url.username !== '' || url.password !== '' || authority.includes('@')) return { kind: 'credentials' };
  const host = url.hostname.replace(/\.$/, '');
  const literal = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (isIP(literal) !== 0) {
    const reason = classifyAddress(literal);
    return reason === 'public' ? null : { kind: 'host', host: url.hostname, reason };
  }
  if (!host.includes('.') || LOCAL_NAME.test(host)) return { kind: 'host', host: url.hostname, reason: 'local_name' };
  return null;
}
