import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import {
  ApiError,
  BestResultHistoryQueryDto,
  ErrorCode,
  isUuid,
  rankAgainst,
  type RankedValue,
  type RankingOutcome,
  type RankingRule,
  replacesIncumbent,
  TaskState,
} from '@rcs/contracts';
import { ReadReplicas } from '@rcs/persistence';
import { IdeaRewardEntity } from '../idea-rewards/entities/idea-reward.entity';
import { IdeaRewardsRepository } from '../idea-rewards/idea-rewards.module';
import { SubmissionEntity } from '../submissions/entities/submission.entity';
import { SubmissionsRepository } from '../submissions/submissions.module';
import { hasIdeaRules } from '../tasks/competition-modes';
import { TaskEntity } from '../tasks/entities/task.entity';
import { TasksRepository } from '../tasks/tasks.module';
import { BestResultsRepository } from './best-results.repository';
import { BestResultChangeEntity } from './entities/best-result-change.entity';
import { BestResultEntity } from './entities/best-result.entity';
import { taskNotFound } from '../tasks/task-lookup';

/** What an accepted result did to its task's best. */
export interface BestResultConsideration {
  /** How it ranked against the incumbent (also when a closed task kept its best frozen). */
  outcome: RankingOutcome;
  replaced: boolean;
  /** The best before this result; unchanged when `replaced` is false. */
  previous: BestResultEntity | null;
  /** Recorded when an implementing centerless submission became the new best. */
  ideaReward: IdeaRewardEntity | null;
}

/** Best results, their history and idea rewards (DECISIONS.md §3, §6). */
@Injectable()
export class BestResultsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly bests: BestResultsRepository,
    private readonly ideaRewards: IdeaRewardsRepository,
    private readonly submissions: SubmissionsRepository,
    private readonly tasks: TasksRepository,
    private readonly replicas: ReadReplicas,
  ) {}

  /**
   * Ranks an accepted result against the task's best and, when it wins, makes it the best, records the
   * change and, for an implementing centerless submission, the idea reward.
   * Precondition: `manager` is inside the decision's transaction, which holds the task row FOR UPDATE
   * (the per-task lock of the decision protocol); `task` was read under that lock.
   */
  async consider(
    manager: EntityManager,
    task: TaskEntity,
    submission: SubmissionEntity,
    result: { metric: number; secondary: number | null },
  ): Promise<BestResultConsideration> {
    const previous = await this.bests.find(manager, task.id);
    const incumbent: RankedValue | null = previous && { metric: previous.metricValue, secondary: previous.secondaryMetricValue };
    const outcome = rankAgainst(result, incumbent, rankingRule(task));
    if (!replacesIncumbent(outcome) || (await this.isFrozenFor(manager, task, submission))) return { outcome, replaced: false, previous, ideaReward: null };

    await this.bests.write(
      manager,
      {
        taskId: task.id,
        submissionId: submission.id,
        metricName: task.metricName,
        metricDirection: task.metricDirection,
        metricValue: result.metric,
        secondaryMetricValue: result.secondary,
        minerHotkey: submission.minerHotkey,
      },
      previous?.submissionId ?? null,
    );
    await this.bests.recordChange(manager, task.id, previous);
    const ideaReward = await this.rewardIdea(manager, task, submission, result.metric, previous);
    return { outcome, replaced: true, previous, ideaReward };
  }

  /**
   * The best restarts (DECISIONS §17): after a re-score on a new held-out shard (or an admin re-score after a benchmark
   * fix) `submission` holds the best with `metric`, whatever the previous value, and the change is recorded.
   * Precondition: the decision transaction holds the task row FOR UPDATE.
   */
  async restart(manager: EntityManager, task: TaskEntity, submission: SubmissionEntity, metric: number): Promise<BestResultConsideration> {
    const previous = await this.bests.find(manager, task.id);
    if (previous !== null && previous.submissionId === submission.id && previous.metricValue === metric) {
      return { outcome: 'not_better', replaced: false, previous, ideaReward: null };
    }
    const values = { taskId: task.id, submissionId: submission.id, metricName: task.metricName, metricDirection: task.metricDirection };
    await this.bests.write(manager, { ...values, metricValue: metric, secondaryMetricValue: null, minerHotkey: submission.minerHotkey }, previous?.submissionId ?? null);
    await this.bests.recordChange(manager, task.id, previous);
    return { outcome: 'first_result', replaced: true, previous, ideaReward: null };
  }

  /** The task's best; 404 `task_not_found`, or 404 `best_result_not_found` before the first accepted result. */
  async best(taskId: string): Promise<BestResultEntity> {
    const found = isUuid(taskId) ? await this.bests.findTaskBest(this.dataSource.manager, taskId) : null;
    if (found === null) throw taskNotFound(taskId);
    if (found.best === null) {
      throw ApiError.notFound(ErrorCode.BestResultNotFound, `Task ${found.slug} has no accepted result yet.`, { task_id: found.taskId });
    }
    return found.best;
  }

  /** Every change of the task's best, oldest first; 404 `task_not_found`. */
  async history(taskId: string, page: BestResultHistoryQueryDto): Promise<BestResultChangeEntity[]> {
    // Public and lag-tolerant: on a read replica when there is one (DECISIONS §19).
    return this.replicas.read(async ({ manager }) => {
      const task = await this.tasks.findOrThrow(manager, taskId);
      return this.bests.listChanges(manager, task.id, page);
    });
  }

  private async rewardIdea(
    manager: EntityManager,
    task: TaskEntity,
    submission: SubmissionEntity,
    improved: number,
    previous: BestResultEntity | null,
  ): Promise<IdeaRewardEntity | null> {
    if (!hasIdeaRules(task.competitionMode) || submission.implementedSubmissionId === null) return null;
    const idea = await this.submissions.getAuthor(manager, submission.implementedSubmissionId);
    return this.ideaRewards.insert(manager, {
      taskId: task.id,
      improvedSubmissionId: submission.id,
      ideaSubmissionId: idea.id,
      proposerHotkey: idea.minerHotkey,
      implementerHotkey: submission.minerHotkey,
      metricName: task.metricName,
      previousMetricValue: previous?.metricValue ?? null,
      improvedMetricValue: improved,
      improvementAmount: previous ? Math.abs(previous.metricValue - improved) : null,
    });
  }

  /** A closed task's best is frozen, except for results of submissions made before the close (DECISIONS.md §3). */
  private async isFrozenFor(manager: EntityManager, task: TaskEntity, submission: SubmissionEntity): Promise<boolean> {
    if (task.taskState !== TaskState.Closed) return false;
    return this.bests.isFrozenFor(manager, task.id, submission.id);
  }
}

function rankingRule(task: TaskEntity): RankingRule {
  const secondaryDirection = task.secondaryMetricName === null ? null : task.secondaryMetricDirection;
  return { direction: task.metricDirection, resolution: task.metricResolution, resolutionMode: task.metricResolutionMode, rankingMode: task.rankingMode, secondaryDirection };
}
