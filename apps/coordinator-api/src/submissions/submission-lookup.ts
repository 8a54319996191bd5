import { EntityManager } from 'typeorm';
import { ApiError, ErrorCode } from '@rcs/contracts';
import { isUuid } from '../common/ids';
import { SubmissionEntity } from './entities/submission.entity';

/** The submission, or 404 `submission_not_found`. `lock` takes a row lock for the rest of the transaction. */
export async function findSubmissionOrThrow(
  manager: EntityManager,
  submissionId: string,
  options: { lock?: 'update' | 'share' } = {},
): Promise<SubmissionEntity> {
  const submission = isUuid(submissionId)
    ? await manager.findOne(SubmissionEntity, {
        where: { id: submissionId },
        ...(options.lock ? { lock: { mode: options.lock === 'update' ? 'pessimistic_write' : 'pessimistic_read' } } : {}),
      })
    : null;
  if (!submission) {
    throw ApiError.notFound(ErrorCode.SubmissionNotFound, `No submission with id ${submissionId}.`, { submission_id: submissionId });
  }
  return submission;
}
