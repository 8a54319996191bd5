import { ApiError, ErrorCode } from '@rcs/contracts';

/** 404 `claim_not_found`: the one wording of an unknown claim id, whichever route names it. */
export function claimNotFound(claimId: string): ApiError {
  return ApiError.notFound(ErrorCode.ClaimNotFound, `No claim with id ${claimId}.`, { claim_id: claimId });
}
