export class InvalidRedisUrlError extends Error {
  constructor(readonly url: string) {
    super(`Not a redis:// or rediss:// URL: ${url.replace(/\/\/[^@/]*@/, '//***@')}`);
    this.name = 'InvalidRedisUrlError';
  }
}

export class InvalidRedisClusterNodesError extends Error {
  constructor(readonly nodes: string) {
    super(`REDIS_CLUSTER_NODES must be comma-separated host:port pairs, got ${JSON.stringify(nodes)}`);
    this.name = 'InvalidRedisClusterNodesError';
  }
}

export type JobRegistryProblemKind = 'missing_handler' | 'duplicate_handler' | 'undeclared_job';

export interface JobRegistryProblem {
  kind: JobRegistryProblemKind;
  queue: string;
  name: string;
  /** `Provider.method` of every handler involved. */
  handlers: string[];
}

function describeProblem(p: JobRegistryProblem): string {
  switch (p.kind) {
    case 'missing_handler':
      return `no @OnJob handler for ${p.queue}/${p.name}`;
    case 'duplicate_handler':
      return `${p.handlers.length} handlers for ${p.queue}/${p.name}: ${p.handlers.join(', ')}`;
    case 'undeclared_job':
      return `${p.handlers.join(', ')} handles ${p.queue}/${p.name}, which the queue configuration does not declare`;
  }
}

/** Boot refused: every declared job needs exactly one handler, and every handler a declared job. */
export class JobRegistryError extends Error {
  constructor(readonly problems: JobRegistryProblem[]) {
    super(`Job registry refuses to start: ${problems.map(describeProblem).join('; ')}`);
    this.name = 'JobRegistryError';
  }
}

/** A producer named a queue or job the configuration does not declare. */
export class UndeclaredJobError extends Error {
  constructor(
    readonly queue: string,
    readonly jobName: string,
  ) {
    super(`Job ${queue}/${jobName} is not declared in the queue configuration`);
    this.name = 'UndeclaredJobError';
  }
}

/** The job's handler threw (after its last attempt); `reason` is the handler's error message. */
export class JobFailedError extends Error {
  constructor(
    readonly queue: string,
    readonly jobName: string,
    readonly jobId: string | undefined,
    readonly reason: string,
  ) {
    super(`Job ${queue}/${jobName} (${jobId ?? 'no id'}) failed: ${reason}`);
    this.name = 'JobFailedError';
  }
}

/** No result arrived in time; the job may still run later. */
export class JobTimeoutError extends Error {
  constructor(
    readonly queue: string,
    readonly jobName: string,
    readonly jobId: string | undefined,
    readonly timeoutMs: number,
  ) {
    super(`Job ${queue}/${jobName} (${jobId ?? 'no id'}) did not finish within ${timeoutMs} ms`);
    this.name = 'JobTimeoutError';
  }
}

/** Boot refused: a `@Repeat` schedule on a method that handles no job, or two schedules under one id in a queue. */
export class ScheduleDeclarationError extends Error {
  constructor(readonly problems: string[]) {
    super(`Schedule keeper refuses to start: ${problems.join('; ')}`);
    this.name = 'ScheduleDeclarationError';
  }
}

/**
 * A handler's error it has already logged itself (e.g. "waiting for the coordinator", said once while
 * another service starts): the workers log its job's last failure at debug, not as a warning.
 */
export interface HandlerReportedError extends Error {
  readonly handlerReported: true;
}

export function isHandlerReported(error: Error): error is HandlerReportedError {
  return (error as Partial<HandlerReportedError>).handlerReported === true;
}
