import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ReleaseState, SubmissionStatus } from '@rcs/contracts';
import { inTransaction } from '@rcs/persistence';
import { BestResultConsideration, BestResultsService } from '../best-results/best-results.service';
import { BestChanged, DomainEvents, SubmissionDecided } from '../events/domain-events';
import { ExposureChanged, ExposureService, RecordedRelease, RescoreInput, RescoreOutcome } from '../exposure/exposure.module';
import { SubmissionEntity } from '../submissions/entities/submission.entity';
import { SubmissionsRepository } from '../submissions/submissions.module';
import { TaskEntity } from '../tasks/entities/task.entity';
import { TasksRepository } from '../tasks/tasks.module';

/** A verdict on a pending submission: accepted ones carry the verified metric values. */
export type Verdict =
  | { status: SubmissionStatus.Accepted; metric: number; secondary: number | null }
  | { status: SubmissionStatus.Rejected | SubmissionStatus.Error };

/** One decision about to be recorded. */
export interface SubmissionDecision {
  /** Read by `lockTask` in this transaction. */
  task: TaskEntity;
  submissionId: string;
  verdict: Verdict;
  /** The held-out shard the result was scored on, when the caller knows it (DECISIONS §17: a retired shard's result is re-scored). */
  scoredOn?: string | null;
  /** The task metric per held-out item, when the benchmark reported it: the release rule's paired spread (DECISIONS §17). */
  perItem?: readonly number[] | null;
}

/** A recorded decision: the decided submission and, for an accepted one, what it did to the task's best. */
export interface RecordedDecision {
  submission: SubmissionEntity;
  bestResult: BestResultConsideration | null;
}

/** A decision was attempted on a task whose row this transaction had not locked first. */
export class TaskNotLockedError extends Error {
  constructor(readonly taskId: string) {
    super(`Task ${taskId} must be locked (DecisionTransaction.lockTask) before one of its submissions is decided`);
    this.name = 'TaskNotLockedError';
  }
}

/** A step of the decision protocol was taken out of its order (lockTask, decideSubmission, conclude). */
export class DecisionStepOrderError extends Error {
  constructor(
    readonly step: 'decideSubmission' | 'conclude' | 'commit',
    readonly submissionId: string | null,
  ) {
    super(
      submissionId === null
        ? `DecisionTransaction.${step}: no decided submission waits for its conclusion`
        : `DecisionTransaction.${step}: the decision of submission ${submissionId} must be concluded first`,
    );
    this.name = 'DecisionStepOrderError';
  }
}

/** A submission decided by step 2 whose conclusion (step 4) is due. */
interface OpenDecision {
  task: TaskEntity;
  verdict: Verdict;
  submission: SubmissionEntity;
  /** Under a held-out budget: what the accepted result released (its verdict's metric is the raw one). */
  release: RecordedRelease | null;
}

/** What a decision transaction announces once it has committed. */
interface Announcements {
  decided: SubmissionDecided[];
  bestChanges: BestChanged[];
  exposureChanges: ExposureChanged[];
}

/**
 * One transaction of the decision protocol (DECISIONS.md §6), in steps taken in order: 1 `lockTask`
 * (the task row FOR UPDATE, so decisions of one task take turns); 2 `decideSubmission`; 3 what the
 * caller records beside the decision (a verification, the job's completion) through `manager`;
 * 4 `conclude`. `decide` is steps 2 and 4 for a decision with nothing beside it. A step out of order
 * is refused, and so is a commit with a decision not concluded.
 */
export class DecisionTransaction {
  private readonly locked = new Set<string>();
  private open: OpenDecision | null = null;

  constructor(
    readonly manager: EntityManager,
    private readonly repositories: { tasks: TasksRepository; submissions: SubmissionsRepository },
    private readonly services: { bestResults: BestResultsService; exposure: ExposureService },
    private readonly announce: Announcements,
  ) {}

  /** The release of the decision step 2 just made (null: no held-out budget, or not accepted); for the verification of step 3. */
  get release(): RecordedRelease | null {
    return this.open?.release ?? null;
  }

  /** Step 1: the task row FOR UPDATE (404 `task_not_found` when there is none). */
  async lockTask(taskId: string): Promise<TaskEntity> {
    const task = await this.repositories.tasks.findOrThrow(this.manager, taskId, { lock: 'update' });
    this.locked.add(task.id);
    return task;
  }

  /**
   * Step 2: `pending_verification` → the verdict (SubmissionsRepository.decidePending, stamped after
   * the task lock). The decided submission, or null when it was no longer pending (nothing written,
   * nothing to conclude).
   */
  async decideSubmission(decision: SubmissionDecision): Promise<SubmissionEntity | null> {
    const { task, verdict } = decision;
    if (!this.locked.has(task.id)) throw new TaskNotLockedError(task.id);
    if (this.open !== null) throw new DecisionStepOrderError('decideSubmission', this.open.submission.id);
    const accepted = verdict.status === SubmissionStatus.Accepted;
    // Under a held-out budget the public value is the released one (DECISIONS §17): decided here, recorded once the submission is.
    const pending = accepted && ExposureService.governs(task) ? await this.services.exposure.decide(this.manager, task, verdict.metric, decision.scoredOn, decision.perItem) : null;
    const values = {
      status: verdict.status,
      verifiedMetric: accepted ? (pending ? pending.outcome.released : verdict.metric) : null,
      verifiedSecondaryMetric: accepted && pending === null ? verdict.secondary : null,
      release: pending?.outcome.release ?? null,
    };
    if (!(await this.repositories.submissions.decidePending(this.manager, decision.submissionId, values))) return null;
    const release = pending && (await this.services.exposure.record(this.manager, task, decision.submissionId, pending));
    if (release?.changed) this.announce.exposureChanges.push(release.changed);
    const submission = await this.repositories.submissions.get(this.manager, decision.submissionId);
    this.open = { task, verdict, submission, release };
    return submission;
  }

  /**
   * Step 4: the decision of step 2 concluded: when accepted, the best result considered; the decision
   * (and a change of best) announced once the transaction has committed.
   */
  async conclude(): Promise<RecordedDecision> {
    if (this.open === null) throw new DecisionStepOrderError('conclude', null);
    const { task, verdict, submission, release } = this.open;
    this.open = null;
    const shown = publicValues(verdict, release);
    // Only a released improvement may move a budgeted task's best: the rest show the previous released best.
    const ranked = shown !== null && (release === null || release.release === ReleaseState.Improved);
    const best = this.services.bestResults;
    const bestResult = !ranked ? null : release?.restartsBest === true ? await best.restart(this.manager, task, submission, shown.metric) : await best.consider(this.manager, task, submission, shown);
    const about = { taskId: task.id, taskSlug: task.slug, submissionId: submission.id, minerHotkey: submission.minerHotkey, metricName: task.metricName };
    const decidedAt = submission.decidedAt ?? new Date();
    this.announce.decided.push({ ...about, status: verdict.status, verifiedMetricValue: shown?.metric ?? null, decidedAt });
    if (bestResult?.replaced && shown) {
      const previous = bestResult.previous;
      this.announce.bestChanges.push({
        ...about,
        metricValue: shown.metric,
        secondaryMetricValue: shown.secondary,
        previousSubmissionId: previous?.submissionId ?? null,
        previousMetricValue: previous?.metricValue ?? null,
        changedAt: decidedAt,
      });
    }
    return { submission, bestResult };
  }

  /**
   * A re-score's raw metric (DECISIONS §17; null when the replay failed), under the task lock, for a submission
   * decided before: the leader's restarts R and the best from its new value, better or worse, and then releases what
   * was held meanwhile; another's waits for it, or is released as a new result would be and may become the best.
   */
  async rescore(task: TaskEntity, input: RescoreInput): Promise<RescoreOutcome> {
    if (!this.locked.has(task.id)) throw new TaskNotLockedError(task.id);
    const { submissionId } = input;
    const exposure = this.services.exposure;
    const outcome = await exposure.rescored(this.manager, task, input);
    if (outcome.changed) this.announce.exposureChanges.push(outcome.changed);
    if (outcome.kind === 'restart' && outcome.released !== null) {
      const submission = await this.repositories.submissions.get(this.manager, submissionId);
      // The leader's public value is its value on the shard in use now (a task without a budget keeps its decision's).
      if (outcome.release !== null) await this.repositories.submissions.setRelease(this.manager, submissionId, outcome.released, outcome.release);
      const restarted = await this.services.bestResults.restart(this.manager, task, submission, outcome.released);
      this.announceBest(task, submission, restarted, { metric: outcome.released, secondary: null });
    }
    if (outcome.kind === 'release' && outcome.release !== null) await this.applyRelease(task, submissionId, outcome);
    if (outcome.releasesHeld) {
      await exposure.releaseHeld(this.manager, task, async (held) => {
        if (held.changed) this.announce.exposureChanges.push(held.changed);
        await this.applyRelease(task, held.submissionId, held);
      });
    }
    return outcome;
  }

  /** A decided submission's new release: its public value, and the best when it improved. */
  private async applyRelease(task: TaskEntity, submissionId: string, recorded: { release: ReleaseState | null; released: number | null; restartsBest?: boolean }): Promise<void> {
    const submission = await this.repositories.submissions.get(this.manager, submissionId);
    // A release that released nothing leaves a result that had been released as it was; a held one now shows R.
    if (recorded.release === null || (recorded.release !== ReleaseState.Improved && submission.release !== ReleaseState.HeldForRotation)) return;
    await this.repositories.submissions.setRelease(this.manager, submissionId, recorded.released, recorded.release);
    if (recorded.release !== ReleaseState.Improved || recorded.released === null) return;
    const shown = { metric: recorded.released, secondary: null };
    const best = recorded.restartsBest === true ? this.services.bestResults.restart(this.manager, task, submission, shown.metric) : this.services.bestResults.consider(this.manager, task, submission, shown);
    this.announceBest(task, submission, await best, shown);
  }

  /** The admin re-score of a locked task (ExposureService.adminRescore), its exposure change announced after the commit. */
  async requestRescore(task: TaskEntity): Promise<{ queued: number; rotated: boolean }> {
    if (!this.locked.has(task.id)) throw new TaskNotLockedError(task.id);
    const { queued, changed } = await this.services.exposure.adminRescore(this.manager, task);
    if (changed) this.announce.exposureChanges.push(changed);
    return { queued, rotated: changed?.rotated === true };
  }

  private announceBest(task: TaskEntity, submission: SubmissionEntity, best: BestResultConsideration, shown: { metric: number; secondary: number | null }): void {
    if (!best.replaced) return;
    this.announce.bestChanges.push({
      taskId: task.id,
      taskSlug: task.slug,
      submissionId: submission.id,
      minerHotkey: submission.minerHotkey,
      metricName: task.metricName,
      metricValue: shown.metric,
      secondaryMetricValue: shown.secondary,
      previousSubmissionId: best.previous?.submissionId ?? null,
      previousMetricValue: best.previous?.metricValue ?? null,
      changedAt: new Date(),
    });
  }

  /** Steps 2 and 4, for a decision that records nothing beside it; null when the submission was no longer pending. */
  async decide(decision: SubmissionDecision): Promise<RecordedDecision | null> {
    return (await this.decideSubmission(decision)) === null ? null : this.conclude();
  }

  /** Before the commit: every decided submission must have been concluded. */
  assertConcluded(): void {
    if (this.open !== null) throw new DecisionStepOrderError('commit', this.open.submission.id);
  }
}

/**
 * The one place submissions are decided (validator result, manual verify, lease exhaustion, peer
 * consensus, and the test fixtures): every decision goes through a DecisionTransaction, and each one
 * is announced as `submission.decided` once its transaction has committed.
 */
@Injectable()
export class DecisionService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly bestResults: BestResultsService,
    private readonly exposure: ExposureService,
    private readonly events: DomainEvents,
    private readonly tasks: TasksRepository,
    private readonly submissions: SubmissionsRepository,
  ) {}

  /** The primary's manager, for reads right after a decision. */
  get manager(): EntityManager {
    return this.dataSource.manager;
  }

  async transaction<T>(work: (tx: DecisionTransaction) => Promise<T>): Promise<T> {
    let announce: Announcements = { decided: [], bestChanges: [], exposureChanges: [] };
    const result = await inTransaction(this.dataSource, async (manager) => {
      announce = { decided: [], bestChanges: [], exposureChanges: [] };
      const services = { bestResults: this.bestResults, exposure: this.exposure };
      const tx = new DecisionTransaction(manager, { tasks: this.tasks, submissions: this.submissions }, services, announce);
      const done = await work(tx);
      tx.assertConcluded();
      return done;
    });
    for (const event of announce.decided) this.events.emit('submission.decided', event);
    for (const event of announce.bestChanges) this.events.emit('best.changed', event);
    for (const event of announce.exposureChanges) this.events.emit('exposure.changed', event);
    return result;
  }
}

/** An accepted verdict's values as the public reads them: under a held-out budget the released value (null before any release), no secondary. */
function publicValues(verdict: Verdict, release: RecordedRelease | null): { metric: number; secondary: number | null } | null {
  if (verdict.status !== SubmissionStatus.Accepted) return null;
  if (release === null) return { metric: verdict.metric, secondary: verdict.secondary };
  return release.released === null ? null : { metric: release.released, secondary: null };
}
