import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { WeightsPassOutcome } from '@rcs/contracts';
import { AppMetrics } from '@rcs/http';
import { OwnershipService } from '../weights/ownership.service';
import { COMMIT_OUTCOMES, PassStatusStore } from '../weights/pass-status.store';

/**
 * `weights_passes_total{outcome}` (`set` counts the weights set), `weights_commits_total{outcome}`
 * (`committed`, `revealed`, `reveal_missed`) and `weights_owner`, read at scrape time: the counters
 * live in Redis, shared by every setter of the hotkey.
 */
@Injectable()
export class WeightsMetrics implements OnModuleInit {
  constructor(
    private readonly metrics: AppMetrics,
    @Inject(PassStatusStore) private readonly status: PassStatusStore,
    @Inject(OwnershipService) private readonly ownership: OwnershipService,
  ) {}

  onModuleInit(): void {
    const status = this.status;
    const ownership = this.ownership;
    this.metrics.counter({
      name: 'weights_passes_total',
      help: 'Weight-setting passes by outcome (all setters of this hotkey).',
      labelNames: ['outcome'],
      async collect() {
        const counters = await status.counters();
        this.reset();
        for (const outcome of Object.values(WeightsPassOutcome)) this.inc({ outcome }, counters[outcome]);
      },
    });
    this.metrics.counter({
      name: 'weights_commits_total',
      help: 'Timelocked commits that landed (committed) and how their reveals ended (revealed, reveal_missed), all setters of this hotkey.',
      labelNames: ['outcome'],
      async collect() {
        const counters = await status.commitCounters();
        this.reset();
        for (const outcome of COMMIT_OUTCOMES) this.inc({ outcome }, counters[outcome]);
      },
    });
    this.metrics.gauge({
      name: 'weights_owner',
      help: '1 when this process owns the hotkey.',
      collect() {
        this.set(ownership.owner ? 1 : 0);
      },
    });
  }
}
