import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Readable } from 'node:stream';
import type { ReadStream } from 'node:fs';
import { DataSource, EntityManager } from 'typeorm';
import { ApiError, ApiValidationError, ErrorCode, isUuid, ValidatorJobStatus } from '@rcs/contracts';
import { validationItem } from '@rcs/http';
import { CoordinatorConfig } from '../config/config';
import { COORDINATOR_CONFIG } from '../config/config.module';
import { TaskEntity } from '../tasks/entities/task.entity';
import { TasksRepository } from '../tasks/tasks.module';
import { HeldoutShardEntity } from './entities/heldout-shard.entity';
import { heldoutDownloadPath, jobBenchmarkEnv, shardSelector } from './heldout-env';
import { HeldoutRepository, ShardUse } from './heldout.repository';
import { HeldoutStore, shardTooLarge } from './heldout-store';

const SHA256_HEX = /^[0-9a-f]{64}$/;

/** A job as leasing hands it over: the held-out columns are filled in here. */
export interface LeasedJobRef {
  id: string;
  taskId: string;
  heldoutSha256: string | null;
}

export interface ShardDownload {
  sha256: string;
  bytes: number;
  stream: ReadStream;
}

/**
 * Private held-out delivery (DECISIONS.md §6): admins upload, list and delete a task's shards; each lease
 * picks one for its job; only the validator holding that lease downloads it. Nothing here is logged.
 */
@Injectable()
export class HeldoutService {
  private readonly store: HeldoutStore;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(COORDINATOR_CONFIG) private readonly config: CoordinatorConfig,
    private readonly shards: HeldoutRepository,
    private readonly tasks: TasksRepository,
  ) {
    this.store = new HeldoutStore(config.heldout.storeDir);
  }

  /**
   * Stores the bytes under their SHA-256 and records them for the task; the same bytes again are the same
   * shard (`created` false). The file is renamed into place under the digest's lock, in the transaction
   * that records it, so a concurrent delete of the same bytes cannot remove it between the two.
   */
  async upload(taskId: string, name: string, body: Readable, declaredBytes: number | null): Promise<{ shard: HeldoutShardEntity; created: boolean }> {
    const task = await this.tasks.findOrThrow(this.dataSource.manager, taskId);
    const { maxBytes } = this.config.heldout;
    if (declaredBytes !== null && declaredBytes > maxBytes) throw shardTooLarge(maxBytes);
    const incoming = await this.store.receive(body, maxBytes);
    try {
      if (incoming.bytes === 0) throw new ApiValidationError([validationItem('missing', ['body'], 'The shard bytes are required (the body was empty).')]);
      return await this.dataSource.transaction(async (manager) => {
        await this.shards.lockDigest(manager, incoming.sha256);
        await this.store.commit(incoming);
        return this.shards.insert(manager, { taskId: task.id, sha256: incoming.sha256, name, bytes: incoming.bytes });
      });
    } finally {
      await this.store.discard(incoming.tempPath);
    }
  }

  async list(taskId: string): Promise<HeldoutShardEntity[]> {
    const task = await this.tasks.findOrThrow(this.dataSource.manager, taskId);
    return this.shards.list(this.dataSource.manager, task.id);
  }

  /** Removes the task's shard, and its file once no task holds the same bytes. */
  async delete(taskId: string, sha256: string): Promise<{ fileRemoved: boolean }> {
    const task = await this.tasks.findOrThrow(this.dataSource.manager, taskId);
    const digest = sha256.toLowerCase();
    if (!SHA256_HEX.test(digest)) throw shardNotFound(task.id, sha256);
    return this.dataSource.transaction(async (manager) => {
      await this.shards.lockDigest(manager, digest);
      if (!(await this.shards.delete(manager, task.id, digest))) throw shardNotFound(task.id, digest);
      if (await this.shards.referenced(manager, digest)) return { fileRemoved: false };
      await this.store.remove(digest);
      return { fileRemoved: true };
    });
  }

  async shardUses(taskId: string): Promise<ShardUse[]> {
    const task = await this.tasks.findOrThrow(this.dataSource.manager, taskId);
    return this.shards.shardUses(this.dataSource.manager, task.id);
  }

  /**
   * In the lease's transaction: picks each job's shard when its task's env names coordinator shards. A task under a
   * held-out budget scores every job on its active shard (`activeShards`, DECISIONS §17).
   */
  async assignForLease(
    manager: EntityManager,
    jobs: LeasedJobRef[],
    tasks: Pick<TaskEntity, 'id' | 'validatorBenchmarkEnv'>[],
    activeShards: ReadonlyMap<string, string | null> = new Map(),
  ): Promise<void> {
    const selectorOf = new Map(tasks.map((task) => [task.id, shardSelector(task.validatorBenchmarkEnv)]));
    for (const job of jobs) {
      const selector = selectorOf.get(job.taskId);
      if (!selector) continue;
      const active = activeShards.get(job.taskId);
      job.heldoutSha256 = active === undefined ? await this.shards.assign(manager, job.id, selector.shardName) : await this.shards.assignShard(manager, job.id, active);
    }
  }

  /** The job's `validator_benchmark_env` as its lessee receives it (heldout-env.ts). */
  jobEnv(env: Record<string, string>, job: LeasedJobRef, baseUrl: string): Record<string, string> {
    const delivery = job.heldoutSha256 === null ? null : { url: `${baseUrl}${heldoutDownloadPath(job.id)}`, sha256: job.heldoutSha256 };
    return jobBenchmarkEnv(env, delivery);
  }

  /**
   * The job's shard for the validator holding its live lease. Unknown job 404; completed 409
   * `job_already_completed`; leased to another validator 403 `not_job_lessee`; back in the pool or past its
   * lease 409 `job_not_leased`; no shard chosen, or the shard withdrawn since, 404 `heldout_shard_not_found`.
   */
  async download(validatorHotkey: string, jobId: string): Promise<ShardDownload> {
    const manager = this.dataSource.manager;
    const job = isUuid(jobId) ? await this.shards.jobLease(manager, jobId) : null;
    if (!job) throw ApiError.notFound(ErrorCode.JobNotFound, `No validator job with id ${jobId}.`, { job_id: jobId });
    if (job.status === ValidatorJobStatus.Completed) {
      throw ApiError.conflict(ErrorCode.JobAlreadyCompleted, `Job ${job.id} is completed; its held-out data is no longer served.`, { job_id: job.id });
    }
    if (job.validatorHotkey !== null && job.validatorHotkey !== validatorHotkey) {
      throw ApiError.forbidden(ErrorCode.NotJobLessee, `Job ${job.id} is leased to another validator; only the lessee may download its held-out data.`, {
        job_id: job.id,
      });
    }
    if (job.status !== ValidatorJobStatus.Leased || !job.leaseLive) {
      throw ApiError.conflict(ErrorCode.JobNotLeased, `You hold no live lease on job ${job.id}; scan to lease it.`, { job_id: job.id, job_status: job.status });
    }
    const shard = job.heldoutSha256 === null ? null : await this.shards.find(manager, job.taskId, job.heldoutSha256);
    const file = shard === null ? null : await this.store.open(shard.sha256);
    if (shard === null || file === null) {
      throw ApiError.notFound(ErrorCode.HeldoutShardNotFound, `Job ${job.id} has no held-out shard to download.`, { job_id: job.id });
    }
    return { sha256: shard.sha256, bytes: file.bytes, stream: file.stream };
  }
}

function shardNotFound(taskId: string, sha256: string): ApiError {
  return ApiError.notFound(ErrorCode.HeldoutShardNotFound, `Task ${taskId} holds no held-out shard with that SHA-256.`, { task_id: taskId, sha256 });
}
