import { Injectable } from '@nestjs/common';
import { EntityManager, FindOptionsWhere, In } from 'typeorm';
import { ApiError, ClaimStatus, ErrorCode, isUuid, PageQueryDto, ReleaseState, SubmissionQueryDto, SubmissionStatus, ValidatorJobStatus, WorkItemStatus } from '@rcs/contracts';
import {
  enumColumn,
  nullableFloatColumn,
  nullableTextColumn,
  nullableTimestampColumn,
  queryOneRow,
  preparedStatement,
  queryPreparedRows,
  queryRows,
  rowLock,
  RowLock,
  SqlRow,
  textColumn,
  timestampColumn,
  UnexpectedRowError,
} from '@rcs/persistence';
import { TaskEntity } from '../tasks/entities/task.entity';
import { SubmissionEntity } from './entities/submission.entity';

/** A submission about to be stored; it is stored `pending_verification`. */
export type NewSubmission = Pick<
  SubmissionEntity,
  | 'taskId'
  | 'claimId'
  | 'minerHotkey'
  | 'baseRef'
  | 'patch'
  | 'summary'
  | 'proposedIdea'
  | 'implementedSubmissionId'
  | 'artifactUri'
  | 'artifactSha256'
  | 'artifactSizeBytes'
  | 'executionLog'
  | 'claimedMetrics'
>;

/** What a decision writes on its submission: the verdict and, for an accepted one, the verified metric values. */
export interface DecidedValues {
  status: SubmissionStatus;
  verifiedMetric: number | null;
  verifiedSecondaryMetric: number | null;
  /** Under a held-out budget, what the accepted result released; `verifiedMetric` is then the released value. */
  release?: ReleaseState | null;
}

/** A submission read with the task it belongs to. */
export interface SubmissionWithTask {
  submission: SubmissionEntity;
  task: TaskEntity;
}

/** The submissions table, always through the caller's manager (decisions are recorded by the decision service). */
@Injectable()
export class SubmissionsRepository {
  /** Centerless submissions of one task take turns (their idea rules read earlier submissions), until the transaction ends. */
  async lockIdeasOf(manager: EntityManager, taskId: string): Promise<void> {
    await manager.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`submissions:ideas:${taskId}`]);
  }

  /**
   * Stores the submission `pending_verification`, completes the work item its claim held and, when
   * `validatorJob`, queues its replay job `pending`, in one statement (the caller's transaction).
   */
  storePending(manager: EntityManager, submission: NewSubmission, options: { validatorJob: boolean }): Promise<SubmissionEntity> {
    return queryOneRow(
      manager,
      `WITH submission AS (
         INSERT INTO submissions (${INSERTED_COLUMNS})
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13::jsonb, $14)
         RETURNING ${SUBMISSION_COLUMNS}
       ${AFTER_INSERT}`,
      insertParameters(submission, options),
      toSubmissionEntity,
    );
  }

  /**
   * What `ClaimsRepository.submitActive` and `storePending` do in a transaction, as one statement with
   * no transaction around it: the claim moves `active` → `submitted` only while it is the signer's,
   * unexpired, and its task is still live with the mode and patch rules `task` was read with (the
   * task share-locked for the statement, so a pause or close waits for it), and only then is the
   * submission stored with its work item and job. Null when any of that no longer holds: nothing
   * changed, and the caller decides the request afresh in a transaction.
   */
  storePendingIfUnchanged(
    manager: EntityManager,
    submission: NewSubmission,
    options: { validatorJob: boolean; task: Pick<TaskEntity, 'taskState' | 'competitionMode' | 'allowedPatchPaths' | 'maxPatchBytes'> },
  ): Promise<SubmissionEntity | null> {
    return queryPreparedRows(
      manager,
      STORE_PENDING_IF_UNCHANGED,
      [
        ...insertParameters(submission, options),
        options.task.taskState,
        options.task.competitionMode,
        JSON.stringify(options.task.allowedPatchPaths),
        options.task.maxPatchBytes,
        ClaimStatus.Submitted,
        ClaimStatus.Active,
      ],
      toSubmissionEntity,
    ).then((rows) => rows[0] ?? null);
  }

  /**
   * `pending_verification` → the verdict in one conditional UPDATE stamped with clock_timestamp() (taken
   * after the caller's task lock, so decisions of a task are stamped in lock order, not in
   * transaction-start order: `decided_at` decides which result is the duplicate in scoring). False
   * when the submission was no longer pending (nothing written).
   */
  async decidePending(manager: EntityManager, submissionId: string, values: DecidedValues): Promise<boolean> {
    const changed = await queryRows(
      manager,
      `WITH decided AS (
         UPDATE submissions
         SET status = $2, decided_at = clock_timestamp(), verified_metric_value = $3, verified_secondary_metric_value = $4,
             release = $6, updated_at = now()
         WHERE id = $1 AND status = $5
         RETURNING id
       )
       SELECT id FROM decided`,
      [submissionId, values.status, values.verifiedMetric, values.verifiedSecondaryMetric, SubmissionStatus.PendingVerification, values.release ?? null],
      (row) => textColumn(row, 'id'),
    );
    return changed.length > 0;
  }

  /** A re-scored accepted result's new public value and release (DECISIONS §17). */
  async setRelease(manager: EntityManager, submissionId: string, verifiedMetric: number | null, release: ReleaseState): Promise<void> {
    await manager.query(
      `UPDATE submissions SET verified_metric_value = $2, release = $3, updated_at = now() WHERE id = $1 AND status = '${SubmissionStatus.Accepted}'`,
      [submissionId, verifiedMetric, release],
    );
  }

  find(manager: EntityManager, submissionId: string): Promise<SubmissionEntity | null> {
    return manager.findOne(SubmissionEntity, { where: { id: submissionId } });
  }

  /** The submission, or 404 `submission_not_found`. `lock` takes a row lock for the rest of the transaction. */
  async findOrThrow(manager: EntityManager, submissionId: string, options: { lock?: RowLock } = {}): Promise<SubmissionEntity> {
    const submission = isUuid(submissionId) ? await manager.findOne(SubmissionEntity, { where: { id: submissionId }, ...rowLock(options.lock) }) : null;
    if (!submission) {
      throw ApiError.notFound(ErrorCode.SubmissionNotFound, `No submission with id ${submissionId}.`, { submission_id: submissionId });
    }
    return submission;
  }

  /** The submission and its task (which its foreign key keeps), or 404 `submission_not_found`. */
  async findWithTask(manager: EntityManager, submissionId: string): Promise<SubmissionWithTask> {
    const submission = await this.findOrThrow(manager, submissionId);
    return { submission, task: await manager.findOneByOrFail(TaskEntity, { id: submission.taskId }) };
  }

  /** The submission, which the caller knows exists. */
  get(manager: EntityManager, submissionId: string): Promise<SubmissionEntity> {
    return manager.findOneByOrFail(SubmissionEntity, { id: submissionId });
  }

  /** Who wrote a submission the caller knows exists (an idea being rewarded). */
  getAuthor(manager: EntityManager, submissionId: string): Promise<Pick<SubmissionEntity, 'id' | 'minerHotkey'>> {
    return manager.findOneOrFail(SubmissionEntity, { where: { id: submissionId }, select: { id: true, minerHotkey: true } });
  }

  /** The submissions with these ids, in no particular order. */
  findMany(manager: EntityManager, submissionIds: string[]): Promise<SubmissionEntity[]> {
    return manager.find(SubmissionEntity, { where: { id: In(submissionIds) } });
  }

  /** The id of the claim's submission, if it has one. */
  findIdOfClaim(manager: EntityManager, claimId: string): Promise<Pick<SubmissionEntity, 'id'> | null> {
    return manager.findOne(SubmissionEntity, { where: { claimId }, select: { id: true } });
  }

  /**
   * The ideas a miner can implement on the task: ids of other miners' non-rejected submissions carrying a
   * (non-blank) idea, newest first, at most `limit`.
   */
  async implementableIdeas(manager: EntityManager, taskId: string, hotkey: string, limit: number): Promise<string[]> {
    const rows = await manager
      .createQueryBuilder(SubmissionEntity, 's')
      .select('s.id', 'id')
      .where('s.taskId = :taskId AND s.minerHotkey <> :hotkey AND s.status <> :rejected', {
        taskId,
        hotkey,
        rejected: SubmissionStatus.Rejected,
      })
      // Non-blank, as hasIdea() reads it.
      .andWhere("s.proposed_idea ~ '\\S'")
      .orderBy('s.createdAt', 'DESC')
      .addOrderBy('s.id', 'DESC')
      .limit(limit)
      .getRawMany<{ id: string }>();
    return rows.map((row) => row.id);
  }

  /** The task's ideas as `GET /tasks/{id}/ideas` lists them: every miner's, non-rejected, non-blank, newest first, paged. */
  ideas(manager: EntityManager, taskId: string, page: PageQueryDto): Promise<SubmissionEntity[]> {
    return manager
      .createQueryBuilder(SubmissionEntity, 's')
      .where('s.taskId = :taskId AND s.status <> :rejected', { taskId, rejected: SubmissionStatus.Rejected })
      // Non-blank, as hasIdea() and implementableIdeas() read it.
      .andWhere("s.proposed_idea ~ '\\S'")
      .orderBy('s.createdAt', 'DESC')
      .addOrderBy('s.id', 'DESC')
      .take(page.limit)
      .skip(page.offset)
      .getMany();
  }

  /** Newest first (`created_at DESC, id DESC`), filtered, paged; the caller has checked that a task id is a uuid. */
  list(manager: EntityManager, query: SubmissionQueryDto): Promise<SubmissionEntity[]> {
    const where: FindOptionsWhere<SubmissionEntity> = {};
    if (query.task_id !== undefined) where.taskId = query.task_id;
    if (query.status !== undefined) where.status = query.status;
    return manager.find(SubmissionEntity, { where, order: { createdAt: 'DESC', id: 'DESC' }, take: query.limit, skip: query.offset });
  }
}

// BIGINT as a double: pg would answer text, and sizes stay far below 2^53.
const SUBMISSION_COLUMNS = `id, task_id, claim_id, miner_hotkey, base_ref, patch, summary, proposed_idea, implemented_submission_id, artifact_uri,
  artifact_sha256, artifact_size_bytes::double precision AS artifact_size_bytes, execution_log, claimed_metrics, status, decided_at,
  verified_metric_value, verified_secondary_metric_value, release, created_at, updated_at`;

function toSubmissionEntity(row: SqlRow): SubmissionEntity {
  return Object.assign(new SubmissionEntity(), {
    id: textColumn(row, 'id'),
    taskId: textColumn(row, 'task_id'),
    claimId: textColumn(row, 'claim_id'),
    minerHotkey: textColumn(row, 'miner_hotkey'),
    baseRef: textColumn(row, 'base_ref'),
    patch: textColumn(row, 'patch'),
    summary: textColumn(row, 'summary'),
    proposedIdea: nullableTextColumn(row, 'proposed_idea'),
    implementedSubmissionId: nullableTextColumn(row, 'implemented_submission_id'),
    artifactUri: nullableTextColumn(row, 'artifact_uri'),
    artifactSha256: nullableTextColumn(row, 'artifact_sha256'),
    artifactSizeBytes: nullableFloatColumn(row, 'artifact_size_bytes'),
    executionLog: nullableTextColumn(row, 'execution_log'),
    claimedMetrics: jsonObjectColumn(row, 'claimed_metrics'),
    status: enumColumn(row, 'status', SubmissionStatus),
    decidedAt: nullableTimestampColumn(row, 'decided_at'),
    verifiedMetricValue: nullableFloatColumn(row, 'verified_metric_value'),
    verifiedSecondaryMetricValue: nullableFloatColumn(row, 'verified_secondary_metric_value'),
    release: row.release === null ? null : enumColumn(row, 'release', ReleaseState),
    createdAt: timestampColumn(row, 'created_at'),
    updatedAt: timestampColumn(row, 'updated_at'),
  });
}

function jsonObjectColumn(row: SqlRow, column: string): Record<string, unknown> {
  const value = row[column];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new UnexpectedRowError(`Column ${column}: expected a jsonb object, got ${value === null ? 'null' : typeof value}`);
  }
  return value as Record<string, unknown>;
}

const INSERTED_COLUMNS = `task_id, claim_id, miner_hotkey, base_ref, patch, summary, proposed_idea, implemented_submission_id,
                          artifact_uri, artifact_sha256, artifact_size_bytes, execution_log, claimed_metrics, status`;

/** After the CTE `submission` (the stored row): completes the claim's work item, queues the validator job when $18, answers the row. */
// The work item is found by the id its claim names (the primary key), as the claim expiry finds it: work_items has no index on claim_id.
const AFTER_INSERT = `), completed AS (
         UPDATE work_items w SET status = $15, completed_submission_id = s.id, updated_at = now()
         FROM submission s JOIN claims c ON c.id = s.claim_id
         WHERE w.id = c.work_item_id AND w.claim_id = s.claim_id AND w.status = $16
       ), job AS (
         INSERT INTO validator_jobs (submission_id, task_id, status, attempts)
         SELECT id, task_id, $17, 0 FROM submission WHERE $18::boolean
       )
       SELECT * FROM submission`;

const STORE_PENDING_IF_UNCHANGED = preparedStatement(
  'submissions_store_pending_if_unchanged',
  `WITH task AS (
     SELECT id FROM tasks
     WHERE id = $1 AND task_state = $19 AND competition_mode = $20 AND allowed_patch_paths = $21::jsonb AND max_patch_bytes = $22
     FOR SHARE
   ), claim AS (
     UPDATE claims SET status = $23, updated_at = now()
     WHERE id = $2 AND miner_hotkey = $3 AND status = $24 AND expires_at > now() AND task_id IN (SELECT id FROM task)
     RETURNING id
   ), submission AS (
     INSERT INTO submissions (${INSERTED_COLUMNS})
     SELECT $1::uuid, claim.id, $3::text, $4::text, $5::text, $6::text, $7::text, $8::uuid, $9::text, $10::text, $11::bigint, $12::text,
            $13::jsonb, $14::text
     FROM claim
     RETURNING ${SUBMISSION_COLUMNS}
   ${AFTER_INSERT}`,
);

/** $1 … $18 of both storing statements. */
function insertParameters(submission: NewSubmission, options: { validatorJob: boolean }): unknown[] {
  return [
    submission.taskId,
    submission.claimId,
    submission.minerHotkey,
    submission.baseRef,
    submission.patch,
    submission.summary,
    submission.proposedIdea,
    submission.implementedSubmissionId,
    submission.artifactUri,
    submission.artifactSha256,
    submission.artifactSizeBytes,
    submission.executionLog,
    JSON.stringify(submission.claimedMetrics),
    SubmissionStatus.PendingVerification,
    WorkItemStatus.Completed,
    WorkItemStatus.Claimed,
    ValidatorJobStatus.Pending,
    options.validatorJob,
  ];
}
