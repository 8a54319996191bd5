import { Injectable } from '@nestjs/common';
import { canonicalSs58 } from '@rcs/auth';
import { ApiValidationError, MINER_RESULTS_CURSOR, MinerResultsDto, MinerResultsQueryDto } from '@rcs/contracts';
import { ReadReplicas } from '@rcs/persistence';
import { MinerResultsRepository } from './miner-results.repository';

/** A miner's public scoreboard reads on the coordinator: its accepted results per competition. */
@Injectable()
export class MinerResultsService {
  constructor(
    private readonly replicas: ReadReplicas,
    private readonly repository: MinerResultsRepository,
  ) {}

  /** Any SS58 spelling of the hotkey (DECISIONS §2); anything else is a 422 on the path. */
  async results(spelled: string, query: MinerResultsQueryDto): Promise<MinerResultsDto> {
    const hotkey = canonicalSs58(spelled);
    if (hotkey === null) {
      throw new ApiValidationError([{ type: 'ss58_invalid', loc: ['path', 'hotkey'], msg: 'Value error, not a valid SS58 address', input: spelled }]);
    }
    const cursor = query.after === undefined ? null : MINER_RESULTS_CURSOR.exec(query.after);
    const after = cursor === null ? null : { decidedAt: cursor[1], taskId: cursor[2] };
    // Public and lag-tolerant: on a read replica when there is one (DECISIONS §19).
    const rows = await this.replicas.read((dataSource) =>
      this.repository.competitions(dataSource.manager, hotkey, { limit: query.limit, offset: query.offset, after }),
    );
    return {
      hotkey,
      competitions: rows.map((row) => ({
        task_id: row.task_id,
        task_slug: row.task_slug,
        task_title: row.task_title,
        task_state: row.task_state,
        metric_name: row.metric_name,
        metric_direction: row.metric_direction,
        accepted: row.accepted,
        best: { submission_id: row.best_submission_id, metric_value: row.best_metric_value, decided_at: row.best_decided_at.toISOString() },
        latest_decided_at: row.latest_decided_at.toISOString(),
        holds_best: row.holds_best,
      })),
    };
  }
}
