import { EntityManager } from 'typeorm';
import { VerificationSummaryDto } from '@rcs/contracts';
import { isUuid } from '../common/ids';
import { VerificationEntity } from './entities/verification.entity';
import { toVerificationSummaryDto } from './verification.mapper';

/** What the submission detail shows of validation, read through the caller's manager. */

/** A submission's verifications as summaries, newest first (the submission detail reads these). */
export async function verificationsForSubmission(manager: EntityManager, submissionId: string): Promise<VerificationSummaryDto[]> {
  if (!isUuid(submissionId)) return [];
  const verifications = await manager.find(VerificationEntity, { where: { submissionId }, order: { createdAt: 'DESC', id: 'DESC' } });
  return verifications.map(toVerificationSummaryDto);
}
