import type { Job } from 'bullmq';
import type { QueueSettings } from '../queue.options';

/** The payload a job carries and the value its handler returns. */
export interface JobSpec<TData = unknown, TResult = unknown> {
  data: TData;
  result: TResult;
}

/**
 * queue name → job name → spec. Declare an app's catalog as a `type` (not an `interface`) keyed by
 * its queue and job enums, and inject `JobQueue<ThatCatalog>`.
 */
export type JobCatalog = Record<string, Record<string, JobSpec>>;

export type QueueOf<C extends JobCatalog> = keyof C & string;
export type JobNameOf<C extends JobCatalog, Q extends QueueOf<C>> = keyof C[Q] & string;
export type JobDataOf<C extends JobCatalog, Q extends QueueOf<C>, N extends JobNameOf<C, Q>> = C[Q][N]['data'];
export type JobResultOf<C extends JobCatalog, Q extends QueueOf<C>, N extends JobNameOf<C, Q>> = C[Q][N]['result'];

/**
 * A handler of job `N` of queue `Q` in catalog `C`: the job's data in, the job's result out; the BullMQ
 * job itself for a handler that needs its attempt (`attemptsMade`, `opts.attempts`).
 */
export type JobHandlerOf<C extends JobCatalog, Q extends QueueOf<C>, N extends JobNameOf<C, Q>> = (
  data: JobDataOf<C, Q, N>,
  job: Job<JobDataOf<C, Q, N>, JobResultOf<C, Q, N>>,
) => Promise<JobResultOf<C, Q, N>>;

/**
 * An app's queue settings checked against its catalog: every queue of `C`, each with `jobNames` of its
 * catalog's jobs only. Pass the contract's enum values (`QUEUE_JOB_NAMES[queue]`), so that a job name is
 * written once: a job of the enum missing from the catalog does not compile, and the registry refuses
 * one without its handler at boot.
 */
export type CatalogQueues<C extends JobCatalog> = { [Q in QueueOf<C>]: QueueSettings & { jobNames: readonly JobNameOf<C, Q>[] } };
