import { Injectable, OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { ReadReplicas } from '@rcs/persistence';
import { AppMetrics } from './app-metrics';

/**
 * Where the public lag-tolerant reads ran (DECISIONS §19), read from `ReadReplicas` at scrape time.
 * Only an app with `*_DATABASE_REPLICA_URLS` set gets the series.
 */
@Injectable()
export class ReplicaReadMetrics implements OnModuleInit {
  constructor(
    private readonly metrics: AppMetrics,
    private readonly moduleRef: ModuleRef,
  ) {}

  onModuleInit(): void {
    let replicas: ReadReplicas;
    try {
      replicas = this.moduleRef.get(ReadReplicas, { strict: false });
    } catch {
      return;
    }
    if (!replicas.configured) return;
    this.metrics.counter({
      name: 'db_routed_reads_total',
      help: 'Public reads routed to read replicas, by where they ran (replica, or primary when no replica answered).',
      labelNames: ['target'],
      collect() {
        this.reset();
        for (const [target, count] of Object.entries(replicas.counts)) this.inc({ target }, count);
      },
    });
  }
}
