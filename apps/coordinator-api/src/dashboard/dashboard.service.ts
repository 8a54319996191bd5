import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DASHBOARD_RECENT_DECISIONS, DASHBOARD_TASK_LIMIT, DashboardDto } from '@rcs/contracts';
import { inTransaction, ReadReplicas } from '@rcs/persistence';
import { toDashboardDto } from './dashboard.mapper';
import { DashboardRepository } from './dashboard.repository';

/** The public dashboard: tasks, their best and counts, the validator backlog and the latest decisions. */
@Injectable()
export class DashboardService {
  constructor(
    private readonly replicas: ReadReplicas,
    private readonly reads: DashboardRepository,
  ) {}

  /** One REPEATABLE READ transaction: every number comes from the same snapshot and the same `now()`. */
  /** Public and lag-tolerant: on a read replica when there is one (DECISIONS §19). */
  dashboard(): Promise<DashboardDto> {
    return this.replicas.read((dataSource) => this.#dashboard(dataSource));
  }

  #dashboard(dataSource: DataSource): Promise<DashboardDto> {
    return inTransaction(
      dataSource,
      async (manager) => {
        const now = await this.reads.readClock(manager);
        const taskStates = await this.reads.countTasksByState(manager);
        const tasks = await this.reads.listTasks(manager, DASHBOARD_TASK_LIMIT);
        const taskIds = tasks.map((task) => task.id);
        return toDashboardDto({
          now,
          taskLimit: DASHBOARD_TASK_LIMIT,
          taskStates,
          tasks,
          submissionCounts: await this.reads.countSubmissionsByStatus(manager, taskIds),
          activeClaims: await this.reads.countActiveClaims(manager, taskIds),
          openWorkItems: await this.reads.countOpenWorkItems(manager, taskIds),
          backlog: await this.reads.readBacklog(manager),
          decisions: await this.reads.listRecentDecisions(manager, DASHBOARD_RECENT_DECISIONS),
        });
      },
      'REPEATABLE READ',
    );
  }
}
