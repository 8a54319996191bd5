import { ClaimDto, PARTICIPATION_DISCLAIMER } from '@rcs/contracts';
import { ClaimEntity } from './entities/claim.entity';

/** A claim as the API answers it; `withDisclaimer` adds the participation disclaimer (claim creation). */
export function toClaimDto(claim: ClaimEntity, options: { withDisclaimer?: boolean } = {}): ClaimDto {
  return {
    id: claim.id,
    task_id: claim.taskId,
    miner_hotkey: claim.minerHotkey,
    claim_description: claim.claimDescription,
    base_submission_id: claim.baseSubmissionId,
    work_item_id: claim.workItemId,
    status: claim.status,
    expires_at: claim.expiresAt.toISOString(),
    created_at: claim.createdAt.toISOString(),
    updated_at: claim.updatedAt.toISOString(),
    ...(options.withDisclaimer ? { participation_disclaimer: PARTICIPATION_DISCLAIMER } : {}),
  };
}
