import type { Job } from 'bullmq';
import { JobRegistryError, JobRegistryProblem } from '../errors';
import type { QueueSettings } from '../queue.options';

export type JobHandler = (data: unknown, job: Job) => unknown;

export interface DiscoveredHandler {
  queue: string;
  name: string;
  /** `Provider.method`, for error messages. */
  source: string;
  handle: JobHandler;
}

/** queue → job name → its one handler. */
export type JobRegistry = ReadonlyMap<string, ReadonlyMap<string, JobHandler>>;

/** Pairs declared jobs with discovered handlers, refusing any gap, duplicate or stray handler. */
export function buildJobRegistry(queues: Record<string, QueueSettings>, handlers: DiscoveredHandler[]): JobRegistry {
  const problems: JobRegistryProblem[] = [];
  const byJob = new Map<string, DiscoveredHandler[]>();
  for (const handler of handlers) {
    if (!queues[handler.queue]?.jobNames.includes(handler.name)) {
      problems.push({ kind: 'undeclared_job', queue: handler.queue, name: handler.name, handlers: [handler.source] });
      continue;
    }
    const key = `${handler.queue}\0${handler.name}`;
    byJob.set(key, [...(byJob.get(key) ?? []), handler]);
  }

  const registry = new Map<string, Map<string, JobHandler>>();
  for (const [queue, settings] of Object.entries(queues)) {
    const jobs = new Map<string, JobHandler>();
    for (const name of settings.jobNames) {
      const found = byJob.get(`${queue}\0${name}`) ?? [];
      if (found.length === 1) jobs.set(name, found[0].handle);
      else if (found.length === 0) problems.push({ kind: 'missing_handler', queue, name, handlers: [] });
      else problems.push({ kind: 'duplicate_handler', queue, name, handlers: found.map((h) => h.source) });
    }
    registry.set(queue, jobs);
  }
  if (problems.length > 0) throw new JobRegistryError(problems);
  return registry;
}
