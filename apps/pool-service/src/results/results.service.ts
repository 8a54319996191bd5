import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ApiError, ErrorCode, PoolResultDto, ResultVerifiedDto, ResultsQueryDto, SotaDto } from '@rcs/contracts';
import { inTransaction } from '@rcs/persistence';
import { DataSource } from 'typeorm';
import { iso } from '../common/iso';
import { PoolServiceConfig } from '../config/config';
import { POOL_CONFIG } from '../config/config.module';
import { PoolEvents } from '../events/pool-events';
import { ResultEntity } from './entities/result.entity';
import { ResultsRepository } from './results.repository';

/** Results and the SOTA threshold (DECISIONS.md §11 Results and SOTA). */
@Injectable()
export class ResultsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly results: ResultsRepository,
    @Inject(POOL_CONFIG) private readonly config: PoolServiceConfig,
    private readonly events: PoolEvents,
  ) {}

  /** Newest first; `pending` only for validators (403 for anyone else). */
  async list(hotkey: string, query: ResultsQueryDto): Promise<PoolResultDto[]> {
    if (query.status === 'pending' && !this.config.validatorHotkeys.includes(hotkey)) {
      throw ApiError.forbidden(ErrorCode.ValidatorNotAllowlisted, 'Only allowlisted validators may list pending results.', { hotkey });
    }
    const rows = await this.results.list(this.dataSource.manager, {
      status: query.status,
      taskType: query.task_type,
      minScore: query.min_score,
      limit: query.limit,
    });
    return rows.map(({ result, algorithmDsl }) => ({
      id: result.id,
      algorithm_id: result.algorithmId,
      task_type: result.taskType,
      miner_hotkey: result.minerHotkey,
      algorithm_dsl: algorithmDsl,
      score: result.score,
      evaluations: result.evaluations,
      verified: result.status === 'verified',
      verified_by: result.verifiedBy,
      verified_at: iso(result.verifiedAt),
      created_at: iso(result.createdAt),
    }));
  }

  /** Verifies the result under a row lock and raises its task type's threshold when higher; idempotent. */
  async verify(validatorHotkey: string, resultId: string): Promise<ResultVerifiedDto> {
    const id = /^[0-9]{1,9}$/.test(resultId) ? Number(resultId) : null;
    let verified: ResultEntity | null = null;
    let raised = false;
    const answer = await inTransaction(this.dataSource, async (manager) => {
      verified = null;
      raised = false;
      const result = id === null ? null : await this.results.lock(manager, id);
      if (result === null) throw ApiError.notFound(ErrorCode.ResultNotFound, `No result with id ${resultId}.`, { result_id: resultId });
      if (result.status === 'pending') {
        await this.results.markVerified(manager, result.id, validatorHotkey);
        raised = await this.results.raiseSota(manager, result.taskType, result.score, result.id, this.config.mining.sotaInitial);
        verified = result;
      }
      const sota = await this.results.findSota(manager, result.taskType);
      return { status: 'verified' as const, result_id: result.id, sota_threshold: sota?.threshold ?? this.config.mining.sotaInitial };
    });
    const result = verified as ResultEntity | null;
    if (result !== null) {
      this.events.emit('result.verified', { resultId: result.id, taskType: result.taskType, minerHotkey: result.minerHotkey, score: result.score, verifiedAt: new Date() });
      if (raised) this.events.emit('sota.changed', { taskType: result.taskType, sotaThreshold: answer.sota_threshold, resultId: result.id });
    }
    return answer;
  }

  async sota(taskType: string | undefined): Promise<SotaDto> {
    const type = taskType ?? this.config.mining.defaultTaskType;
    const sota = await this.results.findSota(this.dataSource.manager, type);
    return {
      task_type: type,
      sota_threshold: sota?.threshold ?? this.config.mining.sotaInitial,
      updated_at: iso(sota?.updatedAt ?? null),
      result_id: sota?.resultId ?? null,
    };
  }
}
