/**
 * The web UI's security headers (DECISIONS §14), one definition for every server of it: the local
 * launcher (tools/stack/web.ts) sends `webSecurityHeaders`, and the gateway (deploy/gateway/nginx.conf)
 * and the web image (deploy/docker/web-nginx.conf) write the same policy, which
 * tools/deploy/web-headers.spec.ts holds them to.
 */

/**
 * Scripts, styles and everything else from the page's own origin only (no inline code, no eval);
 * `connect-src` adds the services config.json names (their reads and event streams); the favicon is
 * a `data:` URL; no page may frame it.
 */
export function contentSecurityPolicy(services: readonly string[]): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src ${["'self'", ...services].join(' ')}`,
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The origin (scheme, host, port) of a service's base URL, as a CSP source. */
export function serviceOrigin(url: string): string {
  return new URL(url).origin;
}

/** Every response of the web UI carries these; the optional services config.json names are connected to as well. */
export function webSecurityHeaders(services: { coordinator: string; pool: string; weight_setter?: string | null; validator_runner?: string | null }): Record<string, string> {
  const named = [services.coordinator, services.pool, services.weight_setter, services.validator_runner].filter((url): url is string => typeof url === 'string');
  return {
    'content-security-policy': contentSecurityPolicy([...new Set(named.map(serviceOrigin))]),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  };
}
