import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { MetricDirection, type MinerCompetitionResultsDto, SubmissionStatus, TaskState } from '@rcs/contracts';
import { enumColumn, intColumn, nullableFloatColumn, queryRows, textColumn, timestampColumn } from '@rcs/persistence';

/**
 * A miner's accepted results gathered per competition. Columns are named one by one: only what the
 * dashboard's decisions and the best history already publish, never a patch, log or note.
 */
@Injectable()
export class MinerResultsRepository {
  /**
   * Competitions with an accepted submission of `hotkey` (canonical), the latest decided first: one page of
   * `miner_task_results` by its index (after the keyset cursor when given), and for each row its best accepted
   * submission, one index probe in the task's metric direction. Never a pass over all of the miner's submissions.
   */
  competitions(manager: EntityManager, hotkey: string, page: { limit: number; offset: number; after: { decidedAt: string; taskId: string } | null }): Promise<MinerCompetitionResultsDto[]> {
    const best = (direction: MetricDirection, order: string) => `
         (SELECT s.id, s.verified_metric_value, s.decided_at FROM submissions s
          WHERE t.metric_direction = '${direction}' AND s.miner_hotkey = $1 AND s.task_id = m.task_id AND s.status = $2
          ORDER BY s.verified_metric_value ${order}, s.decided_at ASC, s.id ASC LIMIT 1)`;
    return queryRows(
      manager,
      `SELECT t.id AS task_id, t.slug AS task_slug, t.title AS task_title, t.task_state, t.metric_name, t.metric_direction,
              m.accepted, m.latest_decided_at, top.id AS best_submission_id, top.verified_metric_value AS best_metric_value,
              top.decided_at AS best_decided_at, CASE WHEN b.miner_hotkey = $1 THEN 1 ELSE 0 END AS holds_best
       FROM miner_task_results m
       JOIN tasks t ON t.id = m.task_id
       LEFT JOIN best_results b ON b.task_id = t.id
       CROSS JOIN LATERAL (${best(MetricDirection.Minimize, 'ASC NULLS LAST')} UNION ALL ${best(MetricDirection.Maximize, 'DESC NULLS LAST')}) top
       WHERE m.miner_hotkey = $1 AND ($5::timestamptz IS NULL OR (m.latest_decided_at, m.task_id) < ($5::timestamptz, $6::uuid))
       ORDER BY m.latest_decided_at DESC, m.task_id DESC
       LIMIT $3 OFFSET $4`,
      [hotkey, SubmissionStatus.Accepted, page.limit, page.offset, page.after?.decidedAt ?? null, page.after?.taskId ?? null],
      (row) => ({
        task_id: textColumn(row, 'task_id'),
        task_slug: textColumn(row, 'task_slug'),
        task_title: textColumn(row, 'task_title'),
        task_state: enumColumn(row, 'task_state', TaskState),
        metric_name: textColumn(row, 'metric_name'),
        metric_direction: enumColumn(row, 'metric_direction', MetricDirection),
        accepted: intColumn(row, 'accepted'),
        best: {
          submission_id: textColumn(row, 'best_submission_id'),
          metric_value: nullableFloatColumn(row, 'best_metric_value'),
          decided_at: timestampColumn(row, 'best_decided_at').toISOString(),
        },
        latest_decided_at: timestampColumn(row, 'latest_decided_at').toISOString(),
        holds_best: intColumn(row, 'holds_best') === 1,
      }),
    );
  }
}
