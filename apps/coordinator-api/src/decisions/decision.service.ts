import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { SubmissionStatus } from '@rcs/contracts';
import { inTransaction, queryRows, textColumn } from '@rcs/persistence';
import { BestResultConsideration, BestResultsService } from '../best-results/best-results.service';
import { BestChanged, DomainEvents, SubmissionDecided } from '../events/domain-events';
import { SubmissionEntity } from '../submissions/entities/submission.entity';
import { SubmissionsRepository } from '../submissions/submissions-repository.module';
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
  /**
   * What the decision records beside the submission (a verification, the job's completion), written
   * after the submission's status and before the best result is considered.
   */
  alongside?: (manager: EntityManager, submission: SubmissionEntity) => Promise<void>;
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

/**
 * One transaction of the decision protocol (DECISIONS.md §6): step 1 `lockTask` (the task row FOR
 * UPDATE, so decisions of one task take turns), then `decide` for each decision.
 */
export class DecisionTransaction {
  private readonly locked = new Set<string>();

  constructor(
    readonly manager: EntityManager,
    private readonly repositories: { tasks: TasksRepository; submissions: SubmissionsRepository },
    private readonly bestResults: BestResultsService,
    private readonly decided: SubmissionDecided[],
    private readonly bestChanges: BestChanged[],
  ) {}

  /** Step 1: the task row FOR UPDATE (404 `task_not_found` when there is none). */
  async lockTask(taskId: string): Promise<TaskEntity> {
    const task = await this.repositories.tasks.findOrThrow(this.manager, taskId, { lock: 'update' });
    this.locked.add(task.id);
    return task;
  }

  /**
   * Steps 2–4: `pending_verification` → the verdict in one conditional UPDATE stamped with
   * clock_timestamp() (taken after the task lock, so decisions of a task are stamped in lock order,
   * not in transaction-start order: `decided_at` decides which result is the duplicate in scoring),
   * then what the caller records alongside, then, when accepted, the best result considered.
   * Null when the submission was no longer pending (nothing written).
   */
  async decide(decision: SubmissionDecision): Promise<RecordedDecision | null> {
    const { task, verdict } = decision;
    if (!this.locked.has(task.id)) throw new TaskNotLockedError(task.id);
    const accepted = verdict.status === SubmissionStatus.Accepted;
    const changed = await queryRows(
      this.manager,
      `WITH decided AS (
         UPDATE submissions
         SET status = $2, decided_at = clock_timestamp(), verified_metric_value = $3, verified_secondary_metric_value = $4,
             updated_at = now()
         WHERE id = $1 AND status = $5
         RETURNING id
       )
       SELECT id FROM decided`,
      [
        decision.submissionId,
        verdict.status,
        accepted ? verdict.metric : null,
        accepted ? verdict.secondary : null,
        SubmissionStatus.PendingVerification,
      ],
      (row) => textColumn(row, 'id'),
    );
    if (changed.length === 0) return null;
    const submission = await this.repositories.submissions.get(this.manager, decision.submissionId);
    if (decision.alongside) await decision.alongside(this.manager, submission);
    const bestResult = accepted
      ? await this.bestResults.consider(this.manager, task, submission, { metric: verdict.metric, secondary: verdict.secondary })
      : null;
    this.decided.push({
      submissionId: submission.id,
      taskId: task.id,
      taskSlug: task.slug,
      minerHotkey: submission.minerHotkey,
      status: verdict.status,
      metricName: task.metricName,
      verifiedMetricValue: accepted ? verdict.metric : null,
      decidedAt: submission.decidedAt ?? new Date(),
    });
    if (bestResult?.replaced && accepted) {
      this.bestChanges.push({
        taskId: task.id,
        taskSlug: task.slug,
        submissionId: submission.id,
        minerHotkey: submission.minerHotkey,
        metricName: task.metricName,
        metricValue: verdict.metric,
        secondaryMetricValue: verdict.secondary,
        previousSubmissionId: bestResult.previous?.submissionId ?? null,
        previousMetricValue: bestResult.previous?.metricValue ?? null,
        changedAt: submission.decidedAt ?? new Date(),
      });
    }
    return { submission, bestResult };
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
    private readonly events: DomainEvents,
    private readonly tasks: TasksRepository,
    private readonly submissions: SubmissionsRepository,
  ) {}

  async transaction<T>(work: (tx: DecisionTransaction) => Promise<T>): Promise<T> {
    let decided: SubmissionDecided[] = [];
    let bestChanges: BestChanged[] = [];
    const result = await inTransaction(this.dataSource, (manager) => {
      decided = [];
      bestChanges = [];
      return work(new DecisionTransaction(manager, { tasks: this.tasks, submissions: this.submissions }, this.bestResults, decided, bestChanges));
    });
    for (const event of decided) this.events.emit('submission.decided', event);
    for (const event of bestChanges) this.events.emit('best.changed', event);
    return result;
  }
}
