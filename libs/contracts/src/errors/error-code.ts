/** Every `detail.error` code the services answer with (DECISIONS.md §1). */
export enum ErrorCode {
  MalformedBody = 'malformed_body',
  MissingSignature = 'missing_signature',
  InvalidSignature = 'invalid_signature',
  StaleTimestamp = 'stale_timestamp',
  ReplayedSignature = 'replayed_signature',
  InvalidAdminToken = 'invalid_admin_token',
  InsufficientMinerStake = 'insufficient_miner_stake',
  ValidatorNotAllowlisted = 'validator_not_allowlisted',
  NotClaimOwner = 'not_claim_owner',
  /** 403: a held-out download by a validator that does not hold the job's lease. */
  NotJobLessee = 'not_job_lessee',
  NotSubmissionOwner = 'not_submission_owner',
  CannotEvaluateOwnSubmission = 'cannot_evaluate_own_submission',
  /** 403: peer-evaluating a submission of a hotkey with the same owner coldkey as the evaluator's (DECISIONS §6). */
  OwnSubmission = 'own_submission',
  NotFound = 'not_found',
  TaskNotFound = 'task_not_found',
  ClaimNotFound = 'claim_not_found',
  WorkItemNotFound = 'work_item_not_found',
  SubmissionNotFound = 'submission_not_found',
  /** The submission exists but carries no artifact (patch only). */
  ArtifactNotFound = 'artifact_not_found',
  /** The task exists but no submission of it has been accepted yet. */
  BestResultNotFound = 'best_result_not_found',
  JobNotFound = 'job_not_found',
  /** The submission exists but no verification of it carries a replay log. */
  ReplayLogNotFound = 'replay_log_not_found',
  /** The task has no held-out shard with that SHA-256, or the job was given none. */
  HeldoutShardNotFound = 'heldout_shard_not_found',
  RewardSnapshotNotFound = 'reward_snapshot_not_found',
  EpochNotFound = 'epoch_not_found',
  HotkeyNotFound = 'hotkey_not_found',
  NoPendingValidatorJobs = 'no_pending_validator_jobs',
  MethodNotAllowed = 'method_not_allowed',
  TaskNotLive = 'task_not_live',
  ClaimNotActive = 'claim_not_active',
  ClaimExpired = 'claim_expired',
  DuplicateActiveClaim = 'duplicate_active_claim',
  DuplicateSlug = 'duplicate_slug',
  WorkItemNotOpen = 'work_item_not_open',
  SubmissionAlreadyDecided = 'submission_already_decided',
  JobNotLeased = 'job_not_leased',
  JobAlreadyCompleted = 'job_already_completed',
  DuplicatePeerEvaluation = 'duplicate_peer_evaluation',
  /** 409: another hotkey of the evaluator's owner coldkey has already evaluated the submission (DECISIONS §6). */
  AlreadyEvaluatedByOwner = 'already_evaluated_by_owner',
  InvalidTaskTransition = 'invalid_task_transition',
  StalePolicyVersion = 'stale_policy_version',
  VerifyNotAllowedForPeerEvaluation = 'verify_not_allowed_for_peer_evaluation',
  PeerEvaluationNotAllowed = 'peer_evaluation_not_allowed',
  NothingToClaim = 'nothing_to_claim',
  EpochNotClaimable = 'epoch_not_claimable',
  ClaimsLocked = 'claims_locked',
  BodyTooLarge = 'body_too_large',
  UnsupportedMediaType = 'unsupported_media_type',
  /** 400: a request HTTP itself cannot read (broken request line or headers), answered below the app. */
  MalformedRequest = 'malformed_request',
  /** 408: the client did not send its request in time. */
  RequestTimeout = 'request_timeout',
  /** 431: the request headers exceed the server's limit. */
  RequestHeadersTooLarge = 'request_headers_too_large',
  RateLimited = 'rate_limited',
  /** 429 with `Retry-After`: this client, or the process, has as many event streams open as allowed (DECISIONS §14). */
  TooManyStreams = 'too_many_streams',
  ValidatorAllowlistUnconfigured = 'validator_allowlist_unconfigured',
  AdminUnconfigured = 'admin_unconfigured',
  ChainUnavailable = 'chain_unavailable',
  AgenticPlannerUnconfigured = 'agentic_planner_unconfigured',
  /** 503 with `Retry-After`: Redis (nonces, rate limits, queues) does not answer right now. */
  RedisUnavailable = 'redis_unavailable',
  /** 503 with `Retry-After`: the database does not answer right now. */
  DatabaseUnavailable = 'database_unavailable',
  /** 502: the agentic planner's LLM endpoint failed, timed out or answered something unusable. */
  PlannerLlmFailed = 'planner_llm_failed',
  /** 504: a planner run did not finish while the route waited (it may still finish later). */
  PlannerTimeout = 'planner_timeout',
  InternalError = 'internal_error',
  // Pool mining (DECISIONS.md §11).
  /** 400 (compat): message contains `Miner already has active task`. */
  ActiveAssignmentExists = 'active_assignment_exists',
  /** 400 (compat): message contains `Lease already issued for this window. Wait for next window.` */
  LeaseAlreadyIssued = 'lease_already_issued',
  /** 404 (compat): message contains `Active lease assignment not found`. */
  LeaseNotFound = 'lease_not_found',
  NoTasksAvailable = 'no_tasks_available',
  AssignmentNotFound = 'assignment_not_found',
  NotAssignmentOwner = 'not_assignment_owner',
  AssignmentNotActive = 'assignment_not_active',
  DuplicateAlgorithm = 'duplicate_algorithm',
  /** 429 with `Retry-After`: the owner coldkey's batches and leases of this window are spent (POOL_BATCHES_PER_WINDOW). */
  WindowBatchLimit = 'window_batch_limit',
  ResultNotFound = 'result_not_found',
  // Claim routes (DECISIONS §8).
  HotkeyNotInEpoch = 'hotkey_not_in_epoch',
  ClaimsNotOpen = 'claims_not_open',
  InvalidProof = 'invalid_proof',
  /** 409: the claim contract refused the claim for a reason its state does not explain (+ `contract_message`, `refusal`). */
  ClaimRefused = 'claim_refused',
}
