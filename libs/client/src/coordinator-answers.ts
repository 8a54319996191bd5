import {
  ClaimStatus,
  CompetitionMode,
  MetricDirection,
  SubmissionStatus,
  TaskState,
  VerificationStatus,
  WorkItemStatus,
  type BestResultChangeDto,
  type BestResultDto,
  type ClaimDto,
  type ClaimEpochDto,
  type ClaimPackageDto,
  type DashboardDto,
  type DisclaimerDto,
  type LeaderboardEntryDto,
  type MinerResultsDto,
  type PeerEvaluationDto,
  type PlannerRunResponseDto,
  type RecipientDto,
  type RecipientUpdatedDto,
  type RewardPolicyDto,
  type SubmissionDetailDto,
  type SubmissionDto,
  type TaskDto,
  type TaskIdeaDto,
  type TaskStateUpdateDto,
  type WorkItemDto,
} from '@rcs/contracts';
import { type AnswerShape, shapeProblems } from './answer-shape';
import { verificationSummaryProblems } from './validator-answers.check';

const values = (e: Record<string, string>): readonly string[] => Object.values(e);

/** The contract DTOs' fields the CLI and `rcs mcp` read, as each answer is checked before it is handed on. */
export const TASK_SHAPE: AnswerShape<TaskDto> = {
  id: 'string',
  slug: 'string',
  title: 'string',
  repository: 'string',
  base_ref: 'string',
  allowed_patch_paths: 'strings',
  max_patch_bytes: 'number',
  metric_name: 'string',
  metric_direction: values(MetricDirection),
  secondary_metric_name: 'string?',
  competition_mode: values(CompetitionMode),
  time_budget_seconds: 'number',
  task_state: values(TaskState),
};

export const DISCLAIMER_SHAPE: AnswerShape<DisclaimerDto> = { code: 'string', version: 'string', title: 'string', text: 'string' };

export const CLAIM_SHAPE: AnswerShape<ClaimDto> = {
  id: 'string',
  task_id: 'string',
  miner_hotkey: 'string',
  work_item_id: 'string?',
  status: values(ClaimStatus),
  expires_at: 'string',
};

export const SUBMISSION_SHAPE: AnswerShape<SubmissionDto> = {
  id: 'string',
  task_id: 'string',
  claim_id: 'string',
  miner_hotkey: 'string',
  base_ref: 'string',
  claimed_metrics: 'object',
  status: values(SubmissionStatus),
};

export const BEST_SHAPE: AnswerShape<BestResultDto> = { task_id: 'string', submission_id: 'string', metric_name: 'string', metric_value: 'number', miner_hotkey: 'string' };

export const BEST_CHANGE_SHAPE: AnswerShape<BestResultChangeDto> = { submission_id: 'string', metric_value: 'number', secondary_metric_value: 'number?' };

export const PEER_EVALUATION_SHAPE: AnswerShape<PeerEvaluationDto> = { id: 'string', submission_id: 'string', evaluator_hotkey: 'string', status: values(VerificationStatus) };

export const TASK_IDEA_SHAPE: AnswerShape<TaskIdeaDto> = { submission_id: 'string', task_id: 'string', miner_hotkey: 'string', proposed_idea: 'string', status: values(SubmissionStatus) };

export const WORK_ITEM_SHAPE: AnswerShape<WorkItemDto> = { id: 'string', task_id: 'string', title: 'string', description: 'string', priority: 'number', status: values(WorkItemStatus) };

export const TASK_STATE_UPDATE_SHAPE: AnswerShape<TaskStateUpdateDto> = { task_id: 'string', previous_state: values(TaskState), task_state: values(TaskState) };

export const DASHBOARD_SHAPE: AnswerShape<DashboardDto> = { generated_at: 'string', validator_backlog: 'object' };

export const PLANNER_RUN_SHAPE: AnswerShape<PlannerRunResponseDto> = { created: 'number' };

export const REWARD_POLICY_SHAPE: AnswerShape<RewardPolicyDto> = { version: 'number' };

export const MINER_RESULTS_SHAPE: AnswerShape<MinerResultsDto> = { hotkey: 'string', competitions: 'array' };

/** A claim, and its participation disclaimer when it carries one (claim creation, the claim list, one claim). */
export function claimProblems(document: unknown, at = ''): string[] {
  const problems = shapeProblems(document, CLAIM_SHAPE, at);
  const disclaimer = (document as { participation_disclaimer?: unknown } | null)?.participation_disclaimer;
  if (problems.length === 0 && disclaimer !== undefined) problems.push(...shapeProblems(disclaimer, DISCLAIMER_SHAPE, `${at ? `${at}.` : ''}participation_disclaimer`));
  return problems;
}

/** `GET /submissions/{id}/detail`: the submission, its verifications (as the runner checks them) and the metric's name. */
export function submissionDetailProblems(document: unknown): string[] {
  const problems = shapeProblems<SubmissionDetailDto>(document, { submission: 'object', verifications: 'array', peer_evaluations: 'array', metric_name: 'string' });
  if (problems.length > 0) return problems;
  const detail = document as SubmissionDetailDto;
  return [
    ...shapeProblems(detail.submission, SUBMISSION_SHAPE, 'submission'),
    ...detail.verifications.flatMap((verification: unknown, i) => verificationSummaryProblems(verification, `verifications[${i}]`)),
  ];
}


/** The pool's answers the CLI and `rcs mcp` read (pool routes: claim packages, epochs, recipients, the leaderboard). */
export const CLAIM_PACKAGE_SHAPE: AnswerShape<ClaimPackageDto> = {
  epoch: 'number',
  index: 'number',
  hotkey: 'string',
  recipient_coldkey: 'string',
  amount: 'string',
  proof: 'strings',
  root: 'string',
  leaf_count: 'number',
  leaf_hash: 'string',
};

export const CLAIM_EPOCH_SHAPE: AnswerShape<ClaimEpochDto> = { epoch: 'number', root: 'string', leaf_count: 'number', total_amount: 'string', status: ['pending', 'published', 'superseded', 'disputed'] };

export const RECIPIENT_SHAPE: AnswerShape<RecipientDto> = { hotkey: 'string', recipient_coldkey: 'string?', declared_coldkey: 'string?' };

export const RECIPIENT_UPDATED_SHAPE: AnswerShape<RecipientUpdatedDto> = { hotkey: 'string', recipient_coldkey: 'string' };

export const LEADERBOARD_ENTRY_SHAPE: AnswerShape<LeaderboardEntryDto> = { rank: 'number', hotkey: 'string', reputation: 'number' };
