import { Injectable, OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { JobQueue } from '@rcs/queue';
import { AppMetrics } from './app-metrics';

const COUNTED_STATES = ['waiting', 'active', 'delayed', 'prioritized', 'failed', 'paused'] as const;

/**
 * BullMQ depth and oldest waiting job per queue the app declares, read from Redis at scrape time
 * (nothing runs between scrapes). Apps without queues get no series.
 */
@Injectable()
export class QueueMetrics implements OnModuleInit {
  constructor(
    private readonly metrics: AppMetrics,
    private readonly moduleRef: ModuleRef,
  ) {}

  onModuleInit(): void {
    let jobs: JobQueue;
    try {
      jobs = this.moduleRef.get(JobQueue, { strict: false });
    } catch {
      return;
    }
    this.metrics.gauge({
      name: 'bullmq_queue_jobs',
      help: 'Jobs in each BullMQ queue of this app, by state.',
      labelNames: ['queue', 'state'],
      async collect() {
        this.reset();
        for (const name of jobs.queueNames) {
          const counts = await jobs.queue(name).getJobCounts(...COUNTED_STATES);
          for (const state of COUNTED_STATES) this.set({ queue: name, state }, counts[state] ?? 0);
        }
      },
    });
    this.metrics.gauge({
      name: 'bullmq_queue_oldest_waiting_seconds',
      help: 'Age of the oldest job waiting in each BullMQ queue of this app (0 when none waits).',
      labelNames: ['queue'],
      async collect() {
        this.reset();
        const now = Date.now();
        for (const name of jobs.queueNames) {
          const [oldest] = await jobs.queue(name).getJobs(['wait', 'prioritized'], 0, 0, true);
          this.set({ queue: name }, oldest ? Math.max(0, (now - oldest.timestamp) / 1000) : 0);
        }
      },
    });
  }
}
