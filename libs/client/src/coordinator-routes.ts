import type {
  BestResultChangeDto,
  BestResultDto,
  ClaimDto,
  CreateSubmissionDto,
  CreateTaskClaimDto,
  CreateWorkItemClaimDto,
  DashboardDto,
  DisclaimerDto,
  MinerResultsDto,
  PeerEvaluateDto,
  PeerEvaluationDto,
  PlannerRunResponseDto,
  RewardPolicyDto,
  SubmissionDetailDto,
  SubmissionDto,
  TaskDto,
  TaskIdeaDto,
  TaskStateUpdateDto,
  VerificationSummaryDto,
  WorkItemDto,
} from '@rcs/contracts';
import { type AnswerShape, checkedAnswer, listProblems, shapeProblems } from './answer-shape';
import {
  BEST_CHANGE_SHAPE,
  BEST_SHAPE,
  claimProblems,
  DASHBOARD_SHAPE,
  DISCLAIMER_SHAPE,
  MINER_RESULTS_SHAPE,
  PEER_EVALUATION_SHAPE,
  PLANNER_RUN_SHAPE,
  REWARD_POLICY_SHAPE,
  SUBMISSION_SHAPE,
  submissionDetailProblems,
  TASK_IDEA_SHAPE,
  TASK_SHAPE,
  TASK_STATE_UPDATE_SHAPE,
  WORK_ITEM_SHAPE,
} from './coordinator-answers';
import type { HttpAnswer, HttpClient, HttpRequest, JsonDocument } from './http-client';
import { verificationListProblems } from './validator-answers.check';

/** A request body as a client writes it: the DTO's required fields, the rest optional (the service fills defaults). */
type Body<T, Required extends keyof T = never> = Pick<T, Required> & Partial<Omit<T, Required>>;

export type SubmissionBody = Body<CreateSubmissionDto, 'claim_id' | 'base_ref' | 'summary'>;
export type TaskClaimBody = Body<CreateTaskClaimDto, 'claim_description'>;
export type WorkItemClaimBody = Body<CreateWorkItemClaimDto>;
export type PeerEvaluateBody = Body<PeerEvaluateDto, 'status'>;

type Auth = { signed?: boolean; admin?: boolean };
type Problems = (document: unknown) => string[];

const one =
  <T>(shape: AnswerShape<T>): Problems =>
  (document) =>
    shapeProblems(document, shape);
const list =
  <T>(shape: AnswerShape<T>): Problems =>
  (document) =>
    listProblems(document, shape);
const claimList: Problems = (document) => (Array.isArray(document) ? document.flatMap((row: unknown, i) => claimProblems(row, `[${i}]`)) : ['the answer must be a JSON array']);

/**
 * The coordinator's miner, validator-status and operator routes as typed calls: bodies typed by the contract's
 * request DTOs, each answer checked against its DTO's fields (as the runner's are) before it is handed on, and its
 * text kept (the CLI's `--json` prints it unchanged). Ids are path-encoded; signed routes use the client's signer.
 */
export class CoordinatorRoutes {
  constructor(
    private readonly http: HttpClient,
    /** `X-Admin-Token` for the operator routes; null when none was configured. */
    private readonly adminToken: string | null = null,
  ) {}

  tasks(query: { task_state?: string; limit?: number } = {}): Promise<JsonDocument<TaskDto[]>> {
    return this.get(`/api/v1/tasks${queryString(query)}`, list(TASK_SHAPE));
  }

  task(taskId: string): Promise<JsonDocument<TaskDto>> {
    return this.get(`/api/v1/tasks/${id(taskId)}`, one(TASK_SHAPE));
  }

  best(taskId: string): Promise<JsonDocument<BestResultDto>> {
    return this.get(`/api/v1/tasks/${id(taskId)}/best`, one(BEST_SHAPE));
  }

  /** `GET /api/v1/tasks/{id}/best/history`: every change of the best, with its secondary metric. */
  bestHistory(taskId: string): Promise<JsonDocument<BestResultChangeDto[]>> {
    return this.get(`/api/v1/tasks/${id(taskId)}/best/history`, list(BEST_CHANGE_SHAPE));
  }

  /** `GET /api/v1/tasks/{id}/onboard.md`: the Markdown itself. */
  onboard(taskId: string): Promise<string> {
    return this.http.text({ method: 'GET', path: `/api/v1/tasks/${id(taskId)}/onboard.md` });
  }

  /** `GET /api/v1/tasks/{id}/ideas`: the ideas proposed on the task, newest first (public). */
  taskIdeas(taskId: string, query: { limit?: number; offset?: number } = {}): Promise<JsonDocument<TaskIdeaDto[]>> {
    return this.get(`/api/v1/tasks/${id(taskId)}/ideas${queryString(query)}`, list(TASK_IDEA_SHAPE));
  }

  workItems(query: { task_id?: string; status?: string; limit?: number; offset?: number } = {}): Promise<JsonDocument<WorkItemDto[]>> {
    return this.get(`/api/v1/work-items${queryString(query)}`, list(WORK_ITEM_SHAPE));
  }

  claims(query: { task_id?: string; status?: string; limit?: number; offset?: number }): Promise<JsonDocument<ClaimDto[]>> {
    return this.get(`/api/v1/claims${queryString(query)}`, claimList);
  }

  /** `GET /api/v1/claims/{id}` (public): one claim, its task among its fields. */
  claim(claimId: string): Promise<JsonDocument<ClaimDto>> {
    return this.get(`/api/v1/claims/${id(claimId)}`, claimProblems);
  }

  claimTask(taskId: string, body: TaskClaimBody): Promise<JsonDocument<ClaimDto>> {
    return this.send('POST', `/api/v1/tasks/${id(taskId)}/claim`, body, { signed: true }, claimProblems);
  }

  claimWorkItem(workItemId: string, body: WorkItemClaimBody): Promise<JsonDocument<ClaimDto>> {
    return this.send('POST', `/api/v1/work-items/${id(workItemId)}/claim`, body, { signed: true }, claimProblems);
  }

  cancelClaim(claimId: string): Promise<JsonDocument<ClaimDto>> {
    return this.send('POST', `/api/v1/claims/${id(claimId)}/cancel`, undefined, { signed: true }, claimProblems);
  }

  submit(body: SubmissionBody): Promise<JsonDocument<SubmissionDto>> {
    return this.send('POST', '/api/v1/submissions', body, { signed: true }, one(SUBMISSION_SHAPE));
  }

  submission(submissionId: string): Promise<JsonDocument<SubmissionDto>> {
    return this.get(`/api/v1/submissions/${id(submissionId)}`, one(SUBMISSION_SHAPE), { signed: true });
  }

  submissionDetail(submissionId: string): Promise<JsonDocument<SubmissionDetailDto>> {
    return this.get(`/api/v1/submissions/${id(submissionId)}/detail`, submissionDetailProblems, { signed: true });
  }

  peerEvaluate(submissionId: string, body: PeerEvaluateBody): Promise<JsonDocument<PeerEvaluationDto>> {
    return this.send('POST', `/api/v1/submissions/${id(submissionId)}/peer-evaluate`, body, { signed: true }, one(PEER_EVALUATION_SHAPE));
  }

  verifications(query: { submission_id?: string; status?: string; limit?: number }): Promise<JsonDocument<VerificationSummaryDto[]>> {
    return this.get(`/api/v1/verifications${queryString(query)}`, verificationListProblems);
  }

  /** `GET /api/v1/miners/{hotkey}/results` (public): a miner's accepted results and bests per competition. */
  minerResults(hotkey: string): Promise<JsonDocument<MinerResultsDto>> {
    return this.get(`/api/v1/miners/${id(hotkey)}/results`, one(MINER_RESULTS_SHAPE));
  }

  /** `GET /api/v1/disclaimer` (public): the participation disclaimer a client must show. */
  disclaimer(): Promise<JsonDocument<DisclaimerDto>> {
    return this.get('/api/v1/disclaimer', one(DISCLAIMER_SHAPE));
  }

  /** The public dashboard (validator backlog: pending, leased and expired jobs). */
  dashboard(): Promise<JsonDocument<DashboardDto>> {
    return this.get('/api/v1/dashboard', one(DASHBOARD_SHAPE));
  }

  /** `POST /api/v1/tasks` (admin): the body is the operator's task file, checked by the service. */
  createTask(body: Record<string, unknown>): Promise<JsonDocument<TaskDto>> {
    return this.send('POST', '/api/v1/tasks', body, { admin: true }, one(TASK_SHAPE));
  }

  moveTask(taskId: string, operation: 'pause' | 'resume' | 'close'): Promise<JsonDocument<TaskStateUpdateDto>> {
    return this.send('POST', `/api/v1/tasks/${id(taskId)}/${operation}`, undefined, { admin: true }, one(TASK_STATE_UPDATE_SHAPE));
  }

  rewardPolicy(): Promise<JsonDocument<RewardPolicyDto>> {
    return this.get('/api/v1/reward-policy', one(REWARD_POLICY_SHAPE), { admin: true });
  }

  /** `PUT /api/v1/reward-policy` (admin): the body is the operator's policy file, checked by the service. */
  setRewardPolicy(body: Record<string, unknown>): Promise<JsonDocument<RewardPolicyDto>> {
    return this.send('PUT', '/api/v1/reward-policy', body, { admin: true }, one(REWARD_POLICY_SHAPE));
  }

  runPlanner(agentic: boolean): Promise<JsonDocument<PlannerRunResponseDto>> {
    return this.send('POST', agentic ? '/api/v1/planner/run-agentic' : '/api/v1/planner/run', undefined, { admin: true }, one(PLANNER_RUN_SHAPE));
  }

  /**
   * Any route, signed or not (`rcs signed-request`): the body sent as the exact text given (the text signed), the
   * answer whatever its status, unchecked (no contract names an arbitrary route's answer).
   */
  raw(method: HttpRequest['method'], pathAndQuery: string, body: string | undefined, signed: boolean): Promise<HttpAnswer> {
    return this.http.send({ method, path: pathAndQuery, body, signed });
  }

  private async get<T>(path: string, problems: Problems, auth: Auth = {}): Promise<JsonDocument<T>> {
    return checked<T>(path, await this.http.document(this.request('GET', path, undefined, auth)), problems);
  }

  private async send<T>(method: 'POST' | 'PUT', path: string, body: object | undefined, auth: Auth, problems: Problems): Promise<JsonDocument<T>> {
    return checked<T>(path, await this.http.document(this.request(method, path, body, auth)), problems);
  }

  private request(method: 'GET' | 'POST' | 'PUT', path: string, body: object | undefined, auth: Auth): HttpRequest {
    // The exact text sent is the text signed.
    return { method, path, body: body === undefined ? undefined : JSON.stringify(body), signed: auth.signed, headers: auth.admin ? this.adminHeaders() : undefined };
  }

  private adminHeaders(): Record<string, string> {
    if (this.adminToken === null) throw new MissingAdminTokenError();
    return { 'X-Admin-Token': this.adminToken };
  }
}

function checked<T>(path: string, document: JsonDocument<unknown>, problems: Problems): JsonDocument<T> {
  return { value: checkedAnswer<T>(path, document.value, problems(document.value)), text: document.text };
}

/** An operator route was called on a client built without an admin token. */
export class MissingAdminTokenError extends Error {
  constructor() {
    super('this route needs an admin token (X-Admin-Token)');
    this.name = 'MissingAdminTokenError';
  }
}

function id(value: string): string {
  return encodeURIComponent(value);
}

/** `?a=1&b=x` of the defined values, in the order given; empty when none. */
export function queryString(query: Record<string, string | number | undefined>): string {
  const pairs = Object.entries(query).filter((entry): entry is [string, string | number] => entry[1] !== undefined);
  return pairs.length === 0 ? '' : `?${pairs.map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`).join('&')}`;
}
