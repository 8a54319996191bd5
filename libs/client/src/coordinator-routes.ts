import type { HttpClient, HttpRequest, JsonDocument } from './http-client';

/**
 * The coordinator's miner, validator-status and operator routes as calls that keep the answer's text
 * (the CLI's `--json` prints it unchanged). Ids are path-encoded; signed routes use the client's signer.
 */
export class CoordinatorRoutes {
  constructor(
    private readonly http: HttpClient,
    /** `X-Admin-Token` for the operator routes; null when none was configured. */
    private readonly adminToken: string | null = null,
  ) {}

  tasks(query: { task_state?: string; limit?: number } = {}): Promise<JsonDocument<unknown>> {
    return this.get(`/api/v1/tasks${queryString(query)}`);
  }

  task(taskId: string): Promise<JsonDocument<unknown>> {
    return this.get(`/api/v1/tasks/${id(taskId)}`);
  }

  best(taskId: string): Promise<JsonDocument<unknown>> {
    return this.get(`/api/v1/tasks/${id(taskId)}/best`);
  }

  /** `GET /api/v1/tasks/{id}/best/history`: every change of the best, with its secondary metric. */
  bestHistory(taskId: string): Promise<JsonDocument<unknown>> {
    return this.get(`/api/v1/tasks/${id(taskId)}/best/history`);
  }

  /** `GET /api/v1/tasks/{id}/onboard.md`: the Markdown itself. */
  onboard(taskId: string): Promise<string> {
    return this.http.text({ method: 'GET', path: `/api/v1/tasks/${id(taskId)}/onboard.md` });
  }

  claims(query: { task_id?: string; status?: string; limit?: number; offset?: number }): Promise<JsonDocument<unknown>> {
    return this.get(`/api/v1/claims${queryString(query)}`);
  }

  claimTask(taskId: string, body: Record<string, unknown>): Promise<JsonDocument<unknown>> {
    return this.post(`/api/v1/tasks/${id(taskId)}/claim`, body, { signed: true });
  }

  claimWorkItem(workItemId: string, body: Record<string, unknown>): Promise<JsonDocument<unknown>> {
    return this.post(`/api/v1/work-items/${id(workItemId)}/claim`, body, { signed: true });
  }

  cancelClaim(claimId: string): Promise<JsonDocument<unknown>> {
    return this.post(`/api/v1/claims/${id(claimId)}/cancel`, undefined, { signed: true });
  }

  submit(body: Record<string, unknown>): Promise<JsonDocument<unknown>> {
    return this.post('/api/v1/submissions', body, { signed: true });
  }

  submission(submissionId: string): Promise<JsonDocument<unknown>> {
    return this.get(`/api/v1/submissions/${id(submissionId)}`, { signed: true });
  }

  submissionDetail(submissionId: string): Promise<JsonDocument<unknown>> {
    return this.get(`/api/v1/submissions/${id(submissionId)}/detail`, { signed: true });
  }

  peerEvaluate(submissionId: string, body: Record<string, unknown>): Promise<JsonDocument<unknown>> {
    return this.post(`/api/v1/submissions/${id(submissionId)}/peer-evaluate`, body, { signed: true });
  }

  verifications(query: { submission_id?: string; status?: string; limit?: number }): Promise<JsonDocument<unknown>> {
    return this.get(`/api/v1/verifications${queryString(query)}`);
  }

  /** The public dashboard (validator backlog: pending, leased and expired jobs). */
  dashboard(): Promise<JsonDocument<unknown>> {
    return this.get('/api/v1/dashboard');
  }

  createTask(body: Record<string, unknown>): Promise<JsonDocument<unknown>> {
    return this.post('/api/v1/tasks', body, { admin: true });
  }

  moveTask(taskId: string, operation: 'pause' | 'resume' | 'close'): Promise<JsonDocument<unknown>> {
    return this.post(`/api/v1/tasks/${id(taskId)}/${operation}`, undefined, { admin: true });
  }

  rewardPolicy(): Promise<JsonDocument<unknown>> {
    return this.get('/api/v1/reward-policy', { admin: true });
  }

  setRewardPolicy(body: Record<string, unknown>): Promise<JsonDocument<unknown>> {
    return this.http.document({ method: 'PUT', path: '/api/v1/reward-policy', body: JSON.stringify(body), headers: this.adminHeaders() });
  }

  runPlanner(agentic: boolean): Promise<JsonDocument<unknown>> {
    return this.post(agentic ? '/api/v1/planner/run-agentic' : '/api/v1/planner/run', undefined, { admin: true });
  }

  private get(path: string, auth: { signed?: boolean; admin?: boolean } = {}): Promise<JsonDocument<unknown>> {
    return this.http.document(this.request('GET', path, undefined, auth));
  }

  private post(path: string, body: Record<string, unknown> | undefined, auth: { signed?: boolean; admin?: boolean }): Promise<JsonDocument<unknown>> {
    return this.http.document(this.request('POST', path, body, auth));
  }

  private request(method: 'GET' | 'POST', path: string, body: Record<string, unknown> | undefined, auth: { signed?: boolean; admin?: boolean }): HttpRequest {
    // The exact text sent is the text signed.
    return { method, path, body: body === undefined ? undefined : JSON.stringify(body), signed: auth.signed, headers: auth.admin ? this.adminHeaders() : undefined };
  }

  private adminHeaders(): Record<string, string> {
    if (this.adminToken === null) throw new MissingAdminTokenError();
    return { 'X-Admin-Token': this.adminToken };
  }
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
