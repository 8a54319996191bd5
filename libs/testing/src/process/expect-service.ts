import type { SpawnedService } from './spawn-service';

/**
 * What every service answers once it is up: its health document, the OpenAPI document at version 0.1.0,
 * and a `/` index that points at both probes and at the service's own `links`.
 */
export async function expectServiceAnswers(service: SpawnedService, name: string, healthPath: string, links: Record<string, string> = {}): Promise<void> {
  const health = (await (await fetch(`${service.url}${healthPath}`)).json()) as Record<string, string>;
  expect(health).toEqual({ status: 'ok', service: name, version: '0.1.0' });
  const openapi = (await (await fetch(`${service.url}/openapi.json`)).json()) as { info: { version: string } };
  expect(openapi.info.version).toBe('0.1.0');
  const index = (await (await fetch(`${service.url}/`)).json()) as Record<string, unknown>;
  expect(index).toMatchObject({ service: name, healthz: '/healthz', readyz: '/readyz', ...links });
}
