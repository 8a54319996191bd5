import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyRequest } from 'fastify';
import type { CoordinatorConfig } from '../config/config';

const HOST = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)(?::\d{1,5})?$/;

/** The first entry of a header that proxies may send as a comma-separated list (or repeat). */
function firstEntry(value: string | string[] | undefined): string | undefined {
  const joined = Array.isArray(value) ? value[0] : value;
  return joined?.split(',')[0].trim();
}

/** The request headers a base URL built by `requestBaseUrl` depends on (for `Vary`). */
export const BASE_URL_HEADERS = 'Host, X-Forwarded-Host, X-Forwarded-Proto';

/**
 * The base URL a client reached this service at: `X-Forwarded-Proto` / `X-Forwarded-Host` when the
 * request came through a trusted proxy (`fromTrustedProxy`), else the connection's protocol and
 * `Host`. Values that are not a plain scheme or host are ignored, so a header cannot inject text into
 * documents that print the URL.
 */
export function requestBaseUrl(headers: IncomingHttpHeaders, connectionProtocol: string, fromTrustedProxy: boolean): string {
  const forwardedProto = fromTrustedProxy ? firstEntry(headers['x-forwarded-proto'])?.toLowerCase() : undefined;
  const protocol = forwardedProto === 'http' || forwardedProto === 'https' ? forwardedProto : connectionProtocol;
  const forwardedHost = fromTrustedProxy ? firstEntry(headers['x-forwarded-host']) : undefined;
  const host = [forwardedHost, headers.host].find((candidate) => candidate !== undefined && HOST.test(candidate));
  return `${protocol}://${host ?? 'localhost'}`;
}

/** Where clients reach this service: PUBLIC_BASE_URL when set, else the request's base URL (forwarded headers believed only from TRUSTED_PROXIES). */
export function serviceBaseUrl(
  config: Pick<CoordinatorConfig, 'publicBaseUrl' | 'trustedProxies'>,
  request: Pick<FastifyRequest, 'headers' | 'protocol'> & { socket: { remoteAddress?: string } },
): string {
  return config.publicBaseUrl ?? requestBaseUrl(request.headers, request.protocol, config.trustedProxies.includes(request.socket.remoteAddress));
}
