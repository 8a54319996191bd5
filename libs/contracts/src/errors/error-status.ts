import { ErrorCode } from './error-code';

/**
 * The one HTTP status of each error code (DECISIONS.md §1). Exhaustive: a code without a status does
 * not compile. `ApiError`, the OpenAPI `@ApiErrors(...)` decorator and the error filter read it.
 */
export const ERROR_STATUS = {
  [ErrorCode.MalformedBody]: 400,
  [ErrorCode.MalformedRequest]: 400,
  [ErrorCode.ActiveAssignmentExists]: 400,
  [ErrorCode.LeaseAlreadyIssued]: 400,

  [ErrorCode.MissingSignature]: 401,
  [ErrorCode.InvalidSignature]: 401,
  [ErrorCode.StaleTimestamp]: 401,
  [ErrorCode.ReplayedSignature]: 401,
  [ErrorCode.InvalidAdminToken]: 401,

  [ErrorCode.InsufficientMinerStake]: 403,
  [ErrorCode.ValidatorNotAllowlisted]: 403,
  [ErrorCode.NotClaimOwner]: 403,
  [ErrorCode.NotJobLessee]: 403,
  [ErrorCode.NotSubmissionOwner]: 403,
  [ErrorCode.CannotEvaluateOwnSubmission]: 403,
  [ErrorCode.OwnSubmission]: 403,
  [ErrorCode.NotAssignmentOwner]: 403,

  [ErrorCode.NotFound]: 404,
  [ErrorCode.HotkeyNotInEpoch]: 404,
  [ErrorCode.TaskNotFound]: 404,
  [ErrorCode.ClaimNotFound]: 404,
  [ErrorCode.WorkItemNotFound]: 404,
  [ErrorCode.SubmissionNotFound]: 404,
  [ErrorCode.ArtifactNotFound]: 404,
  [ErrorCode.BestResultNotFound]: 404,
  [ErrorCode.JobNotFound]: 404,
  [ErrorCode.ReplayLogNotFound]: 404,
  [ErrorCode.HeldoutShardNotFound]: 404,
  [ErrorCode.RewardSnapshotNotFound]: 404,
  [ErrorCode.EpochNotFound]: 404,
  [ErrorCode.HotkeyNotFound]: 404,
  [ErrorCode.NoPendingValidatorJobs]: 404,
  [ErrorCode.LeaseNotFound]: 404,
  [ErrorCode.NoTasksAvailable]: 404,
  [ErrorCode.AssignmentNotFound]: 404,
  [ErrorCode.ResultNotFound]: 404,

  [ErrorCode.MethodNotAllowed]: 405,
  [ErrorCode.RequestTimeout]: 408,

  [ErrorCode.TaskNotLive]: 409,
  [ErrorCode.ClaimNotActive]: 409,
  [ErrorCode.ClaimExpired]: 409,
  [ErrorCode.DuplicateActiveClaim]: 409,
  [ErrorCode.DuplicateSlug]: 409,
  [ErrorCode.WorkItemNotOpen]: 409,
  [ErrorCode.SubmissionAlreadyDecided]: 409,
  [ErrorCode.JobNotLeased]: 409,
  [ErrorCode.JobAlreadyCompleted]: 409,
  [ErrorCode.DuplicatePeerEvaluation]: 409,
  [ErrorCode.AlreadyEvaluatedByOwner]: 409,
  [ErrorCode.InvalidTaskTransition]: 409,
  [ErrorCode.StalePolicyVersion]: 409,
  [ErrorCode.VerifyNotAllowedForPeerEvaluation]: 409,
  [ErrorCode.PeerEvaluationNotAllowed]: 409,
  [ErrorCode.NothingToClaim]: 409,
  [ErrorCode.EpochNotClaimable]: 409,
  [ErrorCode.ClaimsLocked]: 409,
  [ErrorCode.ClaimsNotOpen]: 409,
  [ErrorCode.ClaimRefused]: 409,
  // A 422 item type (a claim package that does not verify), listed so every code has one status.
  [ErrorCode.InvalidProof]: 422,
  [ErrorCode.AssignmentNotActive]: 409,
  [ErrorCode.DuplicateAlgorithm]: 409,

  [ErrorCode.BodyTooLarge]: 413,
  [ErrorCode.UnsupportedMediaType]: 415,
  [ErrorCode.RateLimited]: 429,
  [ErrorCode.WindowBatchLimit]: 429,
  [ErrorCode.TooManyStreams]: 429,
  [ErrorCode.RequestHeadersTooLarge]: 431,

  [ErrorCode.InternalError]: 500,
  [ErrorCode.PlannerLlmFailed]: 502,

  [ErrorCode.ValidatorAllowlistUnconfigured]: 503,
  [ErrorCode.AdminUnconfigured]: 503,
  [ErrorCode.ChainUnavailable]: 503,
  [ErrorCode.AgenticPlannerUnconfigured]: 503,
  [ErrorCode.RedisUnavailable]: 503,
  [ErrorCode.DatabaseUnavailable]: 503,

  [ErrorCode.PlannerTimeout]: 504,
} as const satisfies Record<ErrorCode, number>;

/** The HTTP status of `code`. */
export type ErrorStatus<C extends ErrorCode = ErrorCode> = (typeof ERROR_STATUS)[C];

/** The codes whose status is `S`, e.g. `CodeWithStatus<409>`. */
export type CodeWithStatus<S extends number> = {
  [C in ErrorCode]: (typeof ERROR_STATUS)[C] extends S ? C : never;
}[ErrorCode];

/** The HTTP status of `code`. */
export function errorStatus<C extends ErrorCode>(code: C): ErrorStatus<C> {
  return ERROR_STATUS[code];
}

/** The 401 codes of a failed request signature (missing, invalid, stale, replayed), in that order. */
export const SIGNATURE_ERRORS = [ErrorCode.MissingSignature, ErrorCode.InvalidSignature, ErrorCode.StaleTimestamp, ErrorCode.ReplayedSignature] as const;
