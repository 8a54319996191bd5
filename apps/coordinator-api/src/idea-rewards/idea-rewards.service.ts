import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { IdeaRewardQueryDto } from '@rcs/contracts';
import { IdeaRewardEntity } from './entities/idea-reward.entity';
import { IdeaRewardsRepository } from './idea-rewards.repository';

/** Idea rewards are written by BestResultsService.consider; this side only reads them. */
@Injectable()
export class IdeaRewardsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly rewards: IdeaRewardsRepository,
  ) {}

  list(query: IdeaRewardQueryDto): Promise<IdeaRewardEntity[]> {
    return this.rewards.list(this.dataSource.manager, query);
  }
}
