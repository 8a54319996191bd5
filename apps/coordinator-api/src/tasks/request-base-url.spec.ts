import { TrustedProxies } from '@rcs/http';
import { requestBaseUrl, serviceBaseUrl } from './request-base-url';

describe('requestBaseUrl', () => {
  it('uses the connection protocol and Host', () => {
    expect(requestBaseUrl({ host: '127.0.0.1:8000' }, 'http', false)).toBe('http://127.0.0.1:8000');
  });

  it('prefers X-Forwarded-Proto and X-Forwarded-Host from a trusted proxy, first entry of a list', () => {
    expect(
      requestBaseUrl(
        { host: 'internal:8000', 'x-forwarded-proto': 'HTTPS, http', 'x-forwarded-host': 'coordinator.example, proxy.local' },
        'http',
        true,
      ),
    ).toBe('https://coordinator.example');
  });

  it('ignores X-Forwarded-* from anyone else', () => {
    expect(requestBaseUrl({ host: 'api.test', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'evil.test' }, 'http', false)).toBe(
      'http://api.test',
    );
  });

  it('accepts IPv6 hosts with a port', () => {
    expect(requestBaseUrl({ host: '[::1]:8000' }, 'http', false)).toBe('http://[::1]:8000');
  });

  it('ignores forwarded values that are not a scheme or a host', () => {
    expect(requestBaseUrl({ host: 'api.test', 'x-forwarded-proto': 'javascript', 'x-forwarded-host': 'evil.test/`\n# x' }, 'https', true)).toBe(
      'https://api.test',
    );
  });

  it('falls back to localhost when no usable host is given', () => {
    expect(requestBaseUrl({ host: 'bad host' }, 'http', false)).toBe('http://localhost');
  });
});

describe('serviceBaseUrl', () => {
  const { proxies } = TrustedProxies.parse(['10.0.0.1']);
  const request = (remoteAddress: string) => ({
    headers: { host: 'internal:8000', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'coordinator.example' },
    protocol: 'http' as const,
    socket: { remoteAddress },
  });

  it('answers PUBLIC_BASE_URL whatever the request says', () => {
    expect(serviceBaseUrl({ publicBaseUrl: 'https://public.example', trustedProxies: proxies }, request('10.0.0.1'))).toBe('https://public.example');
  });

  it('without it, believes forwarded headers only from a trusted proxy', () => {
    expect(serviceBaseUrl({ publicBaseUrl: null, trustedProxies: proxies }, request('10.0.0.1'))).toBe('https://coordinator.example');
    expect(serviceBaseUrl({ publicBaseUrl: null, trustedProxies: proxies }, request('10.0.0.2'))).toBe('http://internal:8000');
  });
});
