import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ApiError, CreateWorkItemClaimDto, ErrorCode, isUuid, WorkItemQueryDto, WorkItemStatus } from '@rcs/contracts';
import { inTransaction } from '@rcs/persistence';
import { ClaimsRepository } from '../claims/claims.module';
import { ClaimsService } from '../claims/claims.service';
import { ClaimEntity } from '../claims/entities/claim.entity';
import { RateLimitService } from '../rate-limit/rate-limit.service';
import { assertTaskLive } from '../tasks/task-lookup';
import { TasksRepository } from '../tasks/tasks.module';
import { WorkItemEntity } from './entities/work-item.entity';
import { WorkItemsRepository } from './work-items.repository';

/**
 * Work items (DECISIONS.md §4): `open` → `claimed` (a work-item claim opens a claim on its task) →
 * `completed` (a submission on that claim); an expired or cancelled claim returns the item to `open`.
 */
@Injectable()
export class WorkItemsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly claims: ClaimsService,
    private readonly rateLimit: RateLimitService,
    private readonly items: WorkItemsRepository,
    private readonly claimRows: ClaimsRepository,
    private readonly tasks: TasksRepository,
  ) {}

  /** Newest first; items held by claims past their TTL are reopened first, so the list shows them `open`. */
  async list(query: WorkItemQueryDto): Promise<WorkItemEntity[]> {
    if (query.task_id !== undefined && !isUuid(query.task_id)) return [];
    await this.claimRows.expireStale(this.dataSource.manager, query.task_id === undefined ? {} : { taskId: query.task_id });
    return this.items.list(this.dataSource.manager, query);
  }

  /**
   * Claims an open item: a claim on its task (one active claim per task and miner, the claim rate
   * limit) and the item `claimed` by a conditional UPDATE, in one transaction, so of two miners
   * racing for one item exactly one wins.
   */
  async claim(workItemId: string, hotkey: string, body: CreateWorkItemClaimDto): Promise<ClaimEntity> {
    await this.rateLimit.consume('claim', hotkey);
    if (!isUuid(workItemId)) throw workItemNotFound(workItemId);
    return inTransaction(this.dataSource, async (manager) => {
      const item = await this.findOrThrow(manager, workItemId);
      // On use: a claim past its TTL no longer holds the item.
      if (item.status === WorkItemStatus.Claimed && item.claimId !== null) {
        const { reopened } = await this.claimRows.expireStale(manager, { claimId: item.claimId });
        if (reopened > 0) item.status = WorkItemStatus.Open;
      }
      const task = await this.tasks.findOrThrow(manager, item.taskId, { lock: 'share' });
      assertTaskLive(task);
      if (item.status !== WorkItemStatus.Open) throw workItemNotOpen(item.id, item.status);
      const claim = await this.claims.open(manager, task, {
        minerHotkey: hotkey,
        claimDescription: body.claim_description || item.title,
        baseSubmissionId: null,
        workItemId: item.id,
      });
      if ((await this.items.claimOpen(manager, item.id, claim.id)) === null) throw workItemNotOpen(item.id, WorkItemStatus.Claimed);
      return claim;
    });
  }

  private async findOrThrow(manager: EntityManager, workItemId: string): Promise<WorkItemEntity> {
    const item = await this.items.find(manager, workItemId);
    if (!item) throw workItemNotFound(workItemId);
    return item;
  }
}

function workItemNotFound(workItemId: string): ApiError {
  return ApiError.notFound(ErrorCode.WorkItemNotFound, `No work item with id ${workItemId}.`, { work_item_id: workItemId });
}

function workItemNotOpen(workItemId: string, status: WorkItemStatus): ApiError {
  return ApiError.conflict(ErrorCode.WorkItemNotOpen, `Work item ${workItemId} is ${status}; only open items can be claimed.`, {
    work_item_id: workItemId,
    work_item_status: status,
  });
}
