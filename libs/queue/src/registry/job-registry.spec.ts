import { thrownBy } from '@rcs/testing';
import { JobRegistryError } from '../errors';
import { buildJobRegistry, DiscoveredHandler } from './job-registry';

const handler = (queue: string, name: string, source: string): DiscoveredHandler => ({
  queue,
  name,
  source,
  handle: () => source,
});

const problemsOf = (fn: () => unknown): JobRegistryError['problems'] => thrownBy(JobRegistryError, fn)?.problems ?? [];

describe('buildJobRegistry', () => {
  const queues = { rewards: { jobNames: ['rebuild'] }, maintenance: { jobNames: ['expire-claims', 'expire-leases'] } };

  it('maps every declared job to its single handler', () => {
    const registry = buildJobRegistry(queues, [
      handler('rewards', 'rebuild', 'Rewards.rebuild'),
      handler('maintenance', 'expire-claims', 'Claims.expire'),
      handler('maintenance', 'expire-leases', 'Leases.expire'),
    ]);
    expect([...registry.keys()]).toEqual(['rewards', 'maintenance']);
    expect(registry.get('maintenance')?.get('expire-leases')?.({}, {} as never)).toBe('Leases.expire');
  });

  it('names every missing, duplicate and undeclared handler at once', () => {
    const problems = problemsOf(() =>
      buildJobRegistry(queues, [
        handler('rewards', 'rebuild', 'Rewards.rebuild'),
        handler('rewards', 'rebuild', 'Legacy.rebuild'),
        handler('maintenance', 'expire-claims', 'Claims.expire'),
        handler('maintenance', 'vacuum', 'Maintenance.vacuum'),
        handler('unknown', 'x', 'Stray.x'),
      ]),
    );
    expect(problems).toEqual([
      { kind: 'undeclared_job', queue: 'maintenance', name: 'vacuum', handlers: ['Maintenance.vacuum'] },
      { kind: 'undeclared_job', queue: 'unknown', name: 'x', handlers: ['Stray.x'] },
      { kind: 'duplicate_handler', queue: 'rewards', name: 'rebuild', handlers: ['Rewards.rebuild', 'Legacy.rebuild'] },
      { kind: 'missing_handler', queue: 'maintenance', name: 'expire-leases', handlers: [] },
    ]);
  });

  it('says which job is wrong in the message', () => {
    expect(() => buildJobRegistry(queues, [])).toThrow(
      'Job registry refuses to start: no @OnJob handler for rewards/rebuild; no @OnJob handler for maintenance/expire-claims; no @OnJob handler for maintenance/expire-leases',
    );
  });
});
