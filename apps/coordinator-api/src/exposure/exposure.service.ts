import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ExposureStatus, ReleaseState, TaskExposureDto } from '@rcs/contracts';
import { TaskEntity } from '../tasks/entities/task.entity';
import { HeldoutExposureEntity } from './entities/heldout-exposure.entity';
import { ExposureRepository } from './exposure.repository';
import { MIN_BUDGET_BITS, RELEASE_COST_BITS, ReleaseCandidate, ReleaseOutcome, ReleaseRule, decideRelease, defaultBudgetBits, onGrid, spread } from './release-rule';

/** A task's exposure after a change, as `exposure.changed` announces it once the transaction has committed. */
export interface ExposureChanged {
  taskId: string;
  taskSlug: string;
  shardSeq: number;
  spentBits: number;
  budgetBits: number;
  releases: number;
  status: ExposureStatus;
  /** Whether this change retired a shard and made the next one active. */
  rotated: boolean;
}

/** A release decided for a result not yet recorded: `record` applies it once its submission is decided. */
export interface PendingRelease {
  outcome: ReleaseOutcome;
  exposure: HeldoutExposureEntity;
  /** Scored on a shard retired since: held, and re-scored on the active one (no rotation). */
  stale?: boolean;
  /** R awaits the leader's re-score on this shard: held (no rotation) until it is back, then released in order. */
  waiting?: boolean;
}

/** What a recorded release did: the exposure the verification belongs to, and the change to announce (null: none). */
export interface RecordedRelease {
  release: ReleaseState;
  released: number | null;
  exposureId: string;
  changed: ExposureChanged | null;
  /**
   * The first release on a shard whose leader has no value there (its re-score failed): it restarts the best
   * outright, which still holds the leader's value from the old shard.
   */
  restartsBest?: boolean;
}

/** A result held while R awaited the leader's re-score, released (or not) once it came back. */
export type HeldRelease = RecordedRelease & { submissionId: string };

/**
 * What a re-score did (DECISIONS §17). `restart`: the leader's new value restarted R (without a budget: the best
 * from its raw value); `release`: released as a new result would be; `wait`: held until the leader's re-score is
 * back; `none`: nothing released (a failed replay, or a job of a shard retired since).
 */
/** A re-score job's result for the exposure: whose, on which exposure and shard, its raw metric (null when the replay failed). */
export interface RescoreInput {
  submissionId: string;
  exposureId: string | null;
  raw: number | null;
  perItem?: readonly number[] | null;
  scoredOn?: string | null;
}

export interface RescoreOutcome {
  kind: 'restart' | 'release' | 'wait' | 'none';
  release: ReleaseState | null;
  released: number | null;
  /** The exposure the verification belongs to: the one whose shard it was scored on (null: a task without a budget). */
  exposureId: string | null;
  /** Scored on the shard in use: the raw metric stays with validators and admins until that shard retires. */
  withheld: boolean;
  restartsBest?: boolean;
  changed: ExposureChanged | null;
  /** The leader's re-score came back: what was held meanwhile is to be released now (releaseHeld). */
  releasesHeld: boolean;
}

/** The task's release step: the budget's own, else the task's `metric_resolution`. */
export function releaseStep(task: TaskEntity): number {
  return task.heldoutBudget?.step ?? task.metricResolution;
}

export function releaseRule(task: TaskEntity): ReleaseRule {
  return { direction: task.metricDirection, step: releaseStep(task), costBits: RELEASE_COST_BITS };
}

/** A shard's budget: the task's `bits`, else the floor (the default from `n` needs the replays' `per_item`). */
function budgetBitsOf(task: TaskEntity): number {
  return task.heldoutBudget?.bits ?? MIN_BUDGET_BITS;
}

/**
 * The held-out exposure budget (DECISIONS §17), the one place results are released: every method runs inside the
 * caller's decision transaction, which holds the task row FOR UPDATE, so one task's releases take turns.
 */
@Injectable()
export class ExposureService {
  constructor(private readonly exposures: ExposureRepository) {}

  /** Whether the task releases through the budget. */
  static governs(task: TaskEntity): boolean {
    return task.heldoutBudget?.enabled === true;
  }

  /** The release of a raw metric against the task's active shard (created with its first result); nothing is written yet but that row. */
  async decide(manager: EntityManager, task: TaskEntity, raw: number, scoredOn?: string | null, perItem?: readonly number[] | null): Promise<PendingRelease> {
    const exposure = await this.activeOrFirst(manager, task);
    const held = { release: ReleaseState.HeldForRotation, released: exposure.releasedBest, state: stateOf(exposure) };
    if (!scoredOnShard(exposure, scoredOn)) return { exposure, stale: true, outcome: held };
    if (exposure.status === ExposureStatus.Exhausted) return { exposure, outcome: held };
    // Released against no R, it would restart the best from any lucky result and spend the shard's budget on it.
    if (await this.awaitsLeader(manager, exposure)) return { exposure, waiting: true, outcome: held };
    return { exposure, outcome: await this.judge(manager, task, exposure, raw, perItem) };
  }

  /** The release rule on one result of the active shard: its budget derived first when due, then its candidate judged against R. */
  private async judge(manager: EntityManager, task: TaskEntity, exposure: HeldoutExposureEntity, raw: number, perItem: readonly number[] | null | undefined): Promise<ReleaseOutcome> {
    await this.deriveBudget(manager, task, exposure, perItem);
    return decideRelease(releaseRule(task), stateOf(exposure), await this.candidate(manager, exposure, raw, perItem));
  }

  /**
   * A task without `bits` gets each shard's budget from its first result with per-item values (DECISIONS §17):
   * `(n·step²/(2σ²) − ln(2/δ)) / ln 2` with n and σ of those values, floored at one release. Before the shard's first release only.
   */
  private async deriveBudget(manager: EntityManager, task: TaskEntity, exposure: HeldoutExposureEntity, perItem: readonly number[] | null | undefined): Promise<void> {
    const budget = task.heldoutBudget;
    if (budget === null || budget.bits !== null || exposure.releases > 0 || !perItem || perItem.length < 2) return;
    exposure.budgetBits = defaultBudgetBits(perItem.length, releaseStep(task), spread(perItem), budget.delta);
    await this.exposures.save(manager, exposure);
  }

  /** The release rule's candidate: with per-item values, its paired differences against the leader's on this shard. */
  private async candidate(manager: EntityManager, exposure: HeldoutExposureEntity, raw: number, perItem: readonly number[] | null | undefined): Promise<ReleaseCandidate> {
    const leader = exposure.leaderSubmissionId;
    if (!perItem || leader === null || exposure.releasedBest === null) return { raw };
    const leaderItems = await this.exposures.perItemOf(manager, leader, exposure.shardSha256);
    if (leaderItems === null || leaderItems.length !== perItem.length) return { raw };
    return { raw, pairedDifferences: perItem.map((value, i) => value - leaderItems[i]) };
  }

  /** R restarts from the leader's re-score on this shard (after a rotation or an admin re-score), which is still to come. */
  private async awaitsLeader(manager: EntityManager, exposure: HeldoutExposureEntity): Promise<boolean> {
    const leader = exposure.leaderSubmissionId;
    return exposure.releasedBest === null && leader !== null && (await this.exposures.rescorePending(manager, exposure.id, leader));
  }

  /** Applies a decided release: R and the bits when improved; a rotation (or `exhausted`) when held for one. */
  async record(manager: EntityManager, task: TaskEntity, submissionId: string, pending: PendingRelease): Promise<RecordedRelease> {
    const { outcome, exposure } = pending;
    const base = { release: outcome.release, released: outcome.released, exposureId: exposure.id };
    switch (outcome.release) {
      case ReleaseState.Improved: {
        const restartsBest = exposure.releasedBest === null && exposure.leaderSubmissionId !== null && exposure.leaderSubmissionId !== submissionId;
        exposure.releasedBest = outcome.state.releasedBest;
        exposure.spentBits = outcome.state.spentBits;
        exposure.releases += 1;
        exposure.leaderSubmissionId = submissionId;
        await this.exposures.save(manager, exposure);
        return { ...base, changed: changeOf(task, exposure, false), restartsBest };
      }
      case ReleaseState.HeldForRotation:
        if (pending.stale === true) {
          await this.exposures.queueRescores(manager, task.id, exposure.id, true);
          return { ...base, changed: null };
        }
        // Its raw metric on this shard is recorded with it: the leader's re-score releases it (releaseHeld).
        if (pending.waiting === true) return { ...base, changed: null };
        return { ...base, changed: await this.rotate(manager, task, exposure) };
      case ReleaseState.NotSignificant:
        return { ...base, changed: null };
    }
  }

  /**
   * The shard is spent: the next uploaded shard becomes active (the spent one retires and its raw metrics are
   * published), or, with none left, the task says `exhausted`. Null when it already said so.
   */
  async rotate(manager: EntityManager, task: TaskEntity, current: HeldoutExposureEntity): Promise<ExposureChanged | null> {
    const [next] = await this.exposures.unusedShards(manager, task.id);
    if (next === undefined) {
      if (current.status === ExposureStatus.Exhausted) return null;
      current.status = ExposureStatus.Exhausted;
      await this.exposures.save(manager, current);
      return changeOf(task, current, false);
    }
    await this.exposures.retire(manager, current.id);
    const fresh = await this.exposures.insert(manager, { taskId: task.id, seq: current.seq + 1, shardSha256: next, budgetBits: budgetBitsOf(task) });
    // R restarts from the leader's value on the new shard: its re-score, queued first, sets it (rescored).
    fresh.leaderSubmissionId = await this.exposures.leader(manager, task.id);
    await this.exposures.save(manager, fresh);
    await this.exposures.queueRescores(manager, task.id, fresh.id, true);
    return changeOf(task, fresh, true);
  }

  /**
   * A re-score's result (DECISIONS §17), in the decision transaction of its job; `raw` null when the replay failed.
   * The leader's re-score on a shard whose R awaits it restarts R from its new value, better or worse (no bits), and
   * then releases in order what was held meanwhile; another result waits for it, or goes through the release rule
   * as a new result would. A job of a shard retired since releases nothing.
   */
  async rescored(manager: EntityManager, task: TaskEntity, input: RescoreInput): Promise<RescoreOutcome> {
    const { submissionId, exposureId, raw, perItem, scoredOn } = input;
    const quiet = { release: null, released: null, changed: null, releasesHeld: false };
    if (exposureId === null || !ExposureService.governs(task)) {
      return { ...quiet, kind: raw === null ? 'none' : 'restart', released: raw, exposureId: null, withheld: false };
    }
    const exposure = await this.exposures.active(manager, task.id);
    const onActive = exposure !== null && scoredOnShard(exposure, scoredOn);
    // Recorded with the exposure of the shard it was scored on: the active one keeps it private until it retires.
    const recordedOn = { exposureId: onActive ? exposure.id : exposureId, withheld: onActive };
    if (exposure === null || exposure.id !== exposureId) return { ...quiet, ...recordedOn, kind: 'none' };
    if (exposure.leaderSubmissionId === submissionId && exposure.releasedBest === null) {
      if (raw === null) return { ...quiet, ...recordedOn, kind: 'none', releasesHeld: true };
      exposure.releasedBest = onGrid(raw, releaseStep(task));
      await this.exposures.save(manager, exposure);
      const changed = changeOf(task, exposure, false);
      return { ...recordedOn, kind: 'restart', release: ReleaseState.Improved, released: exposure.releasedBest, changed, releasesHeld: true };
    }
    if (raw === null) return { ...quiet, ...recordedOn, kind: 'none' };
    if (await this.awaitsLeader(manager, exposure)) return { ...quiet, ...recordedOn, kind: 'wait', release: ReleaseState.HeldForRotation };
    const recorded = await this.record(manager, task, submissionId, await this.decide(manager, task, raw, undefined, perItem));
    return { ...recorded, withheld: true, kind: 'release', releasesHeld: false };
  }

  /**
   * The results held while R awaited the leader's re-score, through the release rule in the order they came back, on
   * their raw metric on this shard, each applied by `apply` before the next; one that would overspend rotates the
   * shard, and the rest are re-scored on the next one.
   */
  async releaseHeld(manager: EntityManager, task: TaskEntity, apply: (held: HeldRelease) => Promise<void>): Promise<void> {
    const exposure = await this.exposures.active(manager, task.id);
    if (exposure === null) return;
    for (const { verificationId, submissionId, raw, perItem } of await this.exposures.heldOn(manager, exposure.id, exposure.shardSha256)) {
      const recorded = await this.record(manager, task, submissionId, { exposure, outcome: await this.judge(manager, task, exposure, raw, perItem) });
      await this.exposures.setVerificationRelease(manager, verificationId, recorded.release, recorded.released);
      await apply({ ...recorded, submissionId });
      if (recorded.release === ReleaseState.HeldForRotation) return;
    }
  }

  /**
   * The admin re-score (`POST /tasks/{id}/rescore`), under the task lock: a spent or exhausted budget rotates to the
   * next uploaded shard (which queues the re-scores); otherwise the leader (and any held result) is re-scored on the
   * shard in use and R restarts from the leader's new value. A task without a budget re-scores its leader only.
   */
  async adminRescore(manager: EntityManager, task: TaskEntity): Promise<{ queued: number; changed: ExposureChanged | null }> {
    if (!ExposureService.governs(task)) return { queued: await this.exposures.queueRescores(manager, task.id, null, false), changed: null };
    const exposure = await this.activeOrFirst(manager, task);
    if (exposure.status === ExposureStatus.Exhausted || exposure.spentBits + RELEASE_COST_BITS > exposure.budgetBits) {
      const changed = await this.rotate(manager, task, exposure);
      const active = changed?.rotated ? await this.exposures.active(manager, task.id) : null;
      return { queued: active === null ? 0 : await this.exposures.countOpenRescores(manager, active.id), changed };
    }
    exposure.leaderSubmissionId = await this.exposures.leader(manager, task.id);
    exposure.releasedBest = null;
    await this.exposures.save(manager, exposure);
    return { queued: await this.exposures.queueRescores(manager, task.id, exposure.id, true), changed: changeOf(task, exposure, false) };
  }

  /** The task's exposure as `/tasks/{id}` shows it; null when the task has no enabled budget. */
  async view(manager: EntityManager, tasks: TaskEntity[]): Promise<Map<string, TaskExposureDto | null>> {
    const governed = tasks.filter((task) => ExposureService.governs(task));
    const active = await this.exposures.activeOf(manager, governed.map((task) => task.id));
    return new Map(
      tasks.map((task) => {
        if (!ExposureService.governs(task)) return [task.id, null];
        const row = active.get(task.id);
        return [task.id, row ? toExposureDto(row) : { spent_bits: 0, budget_bits: budgetBitsOf(task), releases: 0, status: ExposureStatus.Open }];
      }),
    );
  }

  /**
   * The shard each budgeted task's leases score on: its active one (made with the task's first lease), null for a
   * task scored on its validators' own data. Tasks without a budget are absent: their leases pick as before.
   */
  async leaseShards(manager: EntityManager, tasks: TaskEntity[]): Promise<Map<string, string | null>> {
    const shards = new Map<string, string | null>();
    for (const task of tasks.filter((candidate) => ExposureService.governs(candidate))) {
      shards.set(task.id, (await this.exposures.ensureActive(manager, task.id, budgetBitsOf(task))).shardSha256);
    }
    return shards;
  }

  private activeOrFirst(manager: EntityManager, task: TaskEntity): Promise<HeldoutExposureEntity> {
    return this.exposures.ensureActive(manager, task.id, budgetBitsOf(task));
  }
}

/** Whether a result scored on `scoredOn` (undefined: not known) was scored on this exposure's shard. */
function scoredOnShard(exposure: HeldoutExposureEntity, scoredOn: string | null | undefined): boolean {
  return scoredOn === undefined || scoredOn === null || exposure.shardSha256 === null || scoredOn === exposure.shardSha256;
}

function stateOf(exposure: HeldoutExposureEntity): ReleaseOutcome['state'] {
  return { releasedBest: exposure.releasedBest, spentBits: exposure.spentBits, budgetBits: exposure.budgetBits };
}

function toExposureDto(exposure: HeldoutExposureEntity): TaskExposureDto {
  return { spent_bits: exposure.spentBits, budget_bits: exposure.budgetBits, releases: exposure.releases, status: exposure.status };
}

function changeOf(task: TaskEntity, exposure: HeldoutExposureEntity, rotated: boolean): ExposureChanged {
  const { spentBits, budgetBits, releases, status } = exposure;
  return { taskId: task.id, taskSlug: task.slug, shardSeq: exposure.seq, spentBits, budgetBits, releases, status, rotated };
}
