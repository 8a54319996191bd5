import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { errorText } from '@rcs/chain';
import { WeightsPassOutcome, type WeightSetterStatusDto } from '@rcs/contracts';
import { AppMetrics } from '@rcs/http';
import { REDIS, redisReady } from '@rcs/queue';
import { OwnerLock } from '../weights/owner-lock';
import { COMMIT_OUTCOMES, PassStatusStore } from '../weights/pass-status.store';
import { SetterIdentity } from '../weights/setter-identity';

interface Check {
  ok: boolean;
  error?: string;
  latest_block?: number;
}

export interface WeightSetterReadiness {
  status: 'ready' | 'not_ready';
  hotkey: string;
  /** `owner` sets weights; `standby` waits for the owner's lock to lapse. */
  role: 'owner' | 'standby';
  fencing_token: number | null;
  /** `on`: passes commit timelocked weights; `off`: they call `set_weights`; `unknown` while the chain does not answer. */
  commit_reveal: 'on' | 'off' | 'unknown';
  dry_run: boolean;
  checks: { redis: Check; chain: Check };
}

/**
 * What the setter says about itself, read from the hotkey's lock and pass status and from the chain:
 * `/status` (the hotkey, whether this process owns it, the last pass), `/readyz` (whether Redis and the
 * chain answer), and the metrics below.
 */
@Injectable()
export class StatusService implements OnModuleInit {
  constructor(
    private readonly metrics: AppMetrics,
    @Inject(SetterIdentity) private readonly setter: SetterIdentity,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(OwnerLock) private readonly lock: OwnerLock,
    @Inject(PassStatusStore) private readonly passes: PassStatusStore,
  ) {}

  /**
   * `weights_passes_total{outcome}` (`set` counts the weights set), `weights_commits_total{outcome}`
   * (`committed`, `revealed`, `reveal_missed`) and `weights_owner`, read at scrape time: the counters
   * live in Redis, shared by every setter of the hotkey.
   */
  onModuleInit(): void {
    const passes = this.passes;
    const lock = this.lock;
    this.metrics.counter({
      name: 'weights_passes_total',
      help: 'Weight-setting passes by outcome (all setters of this hotkey).',
      labelNames: ['outcome'],
      async collect() {
        const counters = await passes.counters();
        this.reset();
        for (const outcome of Object.values(WeightsPassOutcome)) this.inc({ outcome }, counters[outcome]);
      },
    });
    this.metrics.counter({
      name: 'weights_commits_total',
      help: 'Timelocked commits that landed (committed) and how their reveals ended (revealed, reveal_missed), all setters of this hotkey.',
      labelNames: ['outcome'],
      async collect() {
        const counters = await passes.commitCounters();
        this.reset();
        for (const outcome of COMMIT_OUTCOMES) this.inc({ outcome }, counters[outcome]);
      },
    });
    this.metrics.gauge({
      name: 'weights_owner',
      help: '1 when this process owns the hotkey.',
      collect() {
        this.set(lock.held ? 1 : 0);
      },
    });
  }

  async status(): Promise<WeightSetterStatusDto> {
    const stored = await this.passes.read();
    return { hotkey: this.setter.hotkey, owner: this.lock.held, last_pass: stored.last_pass, next_allowed_block: stored.next_allowed_block, last_reveal: stored.last_reveal };
  }

  async readiness(): Promise<WeightSetterReadiness> {
    const [redis, chain] = await Promise.all([redisReady(this.redis), this.chainReady()]);
    return {
      status: redis.ok && chain.check.ok ? 'ready' : 'not_ready',
      hotkey: this.setter.hotkey,
      role: this.lock.held ? 'owner' : 'standby',
      fencing_token: this.lock.token,
      commit_reveal: chain.commitReveal,
      dry_run: this.setter.dryRun,
      checks: { redis, chain: chain.check },
    };
  }

  private async chainReady(): Promise<{ check: Check; commitReveal: WeightSetterReadiness['commit_reveal'] }> {
    const { chain, netuid } = this.setter;
    try {
      const [latest, commitReveal] = await Promise.all([chain.latestBlock(), chain.commitRevealWeightsEnabled(netuid)]);
      return { check: { ok: true, latest_block: latest }, commitReveal: commitReveal ? 'on' : 'off' };
    } catch (error) {
      return { check: { ok: false, error: errorText(error) }, commitReveal: 'unknown' };
    }
  }
}
