import { Injectable } from '@nestjs/common';
import { Brackets, EntityManager } from 'typeorm';
import { IdeaRewardQueryDto, isUuid } from '@rcs/contracts';
import { UnexpectedRowError } from '@rcs/persistence';
import { storedHotkey } from '../common/hotkeys';
import { IdeaRewardEntity } from './entities/idea-reward.entity';

export type NewIdeaReward = Omit<IdeaRewardEntity, 'id' | 'createdAt'>;

/** The idea_rewards table, always through the caller's manager (rewards are written when a best result is considered). */
@Injectable()
export class IdeaRewardsRepository {
  /** Records the reward; `idea_rewards_one_per_improvement_unique` keeps one per improved submission. */
  async insert(manager: EntityManager, reward: NewIdeaReward): Promise<IdeaRewardEntity> {
    // clock_timestamp(), not now(): decisions of a task commit in lock order, not in transaction-start order.
    const inserted = await manager.insert(IdeaRewardEntity, { ...reward, createdAt: () => 'clock_timestamp()' });
    const id: unknown = inserted.identifiers[0]?.id;
    if (typeof id !== 'string') throw new UnexpectedRowError('The idea reward insert answered no id');
    return manager.findOneByOrFail(IdeaRewardEntity, { id });
  }

  /**
   * Newest first. `submission_id` matches the reward's improved submission or its idea submission, so
   * one query shows every reward a submission took part in. Ids that are not uuids match nothing.
   */
  async list(manager: EntityManager, query: IdeaRewardQueryDto): Promise<IdeaRewardEntity[]> {
    if ((query.task_id !== undefined && !isUuid(query.task_id)) || (query.submission_id !== undefined && !isUuid(query.submission_id))) {
      return [];
    }
    const proposer = storedHotkey(query.proposer_hotkey);
    const implementer = storedHotkey(query.implementer_hotkey);
    const builder = manager.createQueryBuilder(IdeaRewardEntity, 'r');
    if (query.task_id !== undefined) builder.andWhere('r.task_id = :taskId', { taskId: query.task_id });
    if (query.submission_id !== undefined) builder.andWhere(submissionClause(query.submission_id));
    if (proposer !== undefined) builder.andWhere('r.proposer_hotkey = :proposer', { proposer });
    if (implementer !== undefined) builder.andWhere('r.implementer_hotkey = :implementer', { implementer });
    return builder.orderBy('r.created_at', 'DESC').addOrderBy('r.id', 'DESC').take(query.limit).skip(query.offset).getMany();
  }

  /** The rewards a submission took part in, as idea or as improvement, newest first (the submission detail). */
  async listForSubmission(manager: EntityManager, submissionId: string): Promise<IdeaRewardEntity[]> {
    if (!isUuid(submissionId)) return [];
    return manager
      .createQueryBuilder(IdeaRewardEntity, 'r')
      .where(submissionClause(submissionId))
      .orderBy('r.created_at', 'DESC')
      .addOrderBy('r.id', 'DESC')
      .getMany();
  }
}

function submissionClause(submissionId: string): Brackets {
  return new Brackets((where) => {
    where.where('r.improved_submission_id = :submissionId', { submissionId }).orWhere('r.idea_submission_id = :submissionId', { submissionId });
  });
}
