/** Wire enumerations of the coordinator spec ("Enumerations") and DECISIONS.md. */

export enum TaskState {
  Live = 'live',
  Paused = 'paused',
  Closed = 'closed',
}

export enum ClaimStatus {
  Active = 'active',
  Submitted = 'submitted',
  Expired = 'expired',
  Cancelled = 'cancelled',
}

export enum SubmissionStatus {
  PendingVerification = 'pending_verification',
  Accepted = 'accepted',
  Rejected = 'rejected',
  Error = 'error',
}

export enum CompetitionMode {
  Standard = 'standard',
  Centerless = 'centerless',
  PeerEvaluation = 'peer_evaluation',
}

export enum RankingMode {
  Scalar = 'scalar',
  Pareto = 'pareto',
}

export enum MetricDirection {
  Maximize = 'maximize',
  Minimize = 'minimize',
}

/** `pending` only appears in peer consensus (DECISIONS §6); results and evaluations post the other three. */
export enum VerificationStatus {
  Accepted = 'accepted',
  Rejected = 'rejected',
  Error = 'error',
  Pending = 'pending',
}

/** The statuses a validator or peer evaluator may post. */
export const VERDICT_STATUSES: readonly VerificationStatus[] = [
  VerificationStatus.Accepted,
  VerificationStatus.Rejected,
  VerificationStatus.Error,
];

export enum WorkItemStatus {
  Open = 'open',
  Claimed = 'claimed',
  Completed = 'completed',
  Cancelled = 'cancelled',
}

export enum WorkItemSource {
  Planner = 'planner',
  AgenticPlanner = 'agentic_planner',
  Admin = 'admin',
}

/** How `metric_resolution` is compared (DECISIONS §3): plain difference, or difference of natural logs. */
export enum MetricResolutionMode {
  Absolute = 'absolute',
  Log = 'log',
}

/** What the public learned from an accepted result under a held-out budget (DECISIONS §17). */
export enum ReleaseState {
  Improved = 'improved',
  NotSignificant = 'not_significant',
  HeldForRotation = 'held_for_rotation',
}

/** A task's held-out exposure (DECISIONS §17): releasing, or out of shards until an admin uploads one. */
export enum ExposureStatus {
  Open = 'open',
  Exhausted = 'exhausted',
}

/** Why a validator job exists: to decide its submission, or to re-score a decided one on a new shard (DECISIONS §17). */
export enum ValidatorJobReason {
  Decide = 'decide',
  Rescore = 'rescore',
}

export enum ValidatorJobStatus {
  Pending = 'pending',
  Leased = 'leased',
  Completed = 'completed',
}

export enum ContractHotkeyMode {
  MainContract = 'main_contract',
  DedicatedContract = 'dedicated_contract',
}

export enum RewardScope {
  CompetitionOnly = 'competition_only',
  SharedPool = 'shared_pool',
}

export enum ScoringMode {
  AcceptedPlusBest = 'accepted_plus_best',
  BestOnly = 'best_only',
}

export enum AcceptedRewardFloorMode {
  Disabled = 'disabled',
  Fixed = 'fixed',
  BestPopulationStddev = 'best_population_stddev',
}

export enum ValidatorWeightsMode {
  Local = 'local',
  BurnUid0 = 'burn_uid0',
  Targets = 'targets',
}
