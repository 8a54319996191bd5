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
    const competitions = await this.replicas.read((dataSource) =>
      this.repository.competitions(dataSource.manager, hotkey, { limit: query.limit, offset: query.offset, after }),
    );
    return { hotkey, competitions };
  }
}
