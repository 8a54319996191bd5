import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { DASHBOARD_RECENT_DECISIONS, DASHBOARD_TASK_LIMIT, DashboardDto } from '@rcs/contracts';
import { inTransaction } from '@rcs/persistence';
import { toDashboardDto } from './dashboard.mapper';
import {
  countActiveClaims,
  countOpenWorkItems,
  countSubmissionsByStatus,
  countTasksByState,
  listRecentDecisions,
  listTasks,
  readBacklog,
  readClock,
} from './dashboard.repository';

/** The public dashboard: tasks, their best and counts, the validator backlog and the latest decisions. */
@Injectable()
export class DashboardService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** One REPEATABLE READ transaction: every number comes from the same snapshot and the same `now()`. */
  dashboard(): Promise<DashboardDto> {
    return inTransaction(
      this.dataSource,
      async (manager) => {
        const now = await readClock(manager);
        const taskStates = await countTasksByState(manager);
        const tasks = await listTasks(manager, DASHBOARD_TASK_LIMIT);
        const taskIds = tasks.map((task) => task.id);
        return toDashboardDto({
          now,
          taskLimit: DASHBOARD_TASK_LIMIT,
          taskStates,
          tasks,
          submissionCounts: await countSubmissionsByStatus(manager, taskIds),
          activeClaims: await countActiveClaims(manager, taskIds),
          openWorkItems: await countOpenWorkItems(manager, taskIds),
          backlog: await readBacklog(manager),
          decisions: await listRecentDecisions(manager, DASHBOARD_RECENT_DECISIONS),
        });
      },
      'REPEATABLE READ',
    );
  }
}
