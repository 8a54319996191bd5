import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { BtAuthSigner, canonicalSs58 } from '@rcs/auth';
import {
  answerError as serviceAnswerError,
  asScanResponse,
  asVerificationList,
  asVerificationSummary,
  HttpClient,
  InvalidResponseError,
  scanResponseProblems,
  ServiceUnreachableError,
  VALIDATOR_SCAN_PATH,
  validatorJobResultPath,
  verificationListProblems,
  verificationsPath,
  verificationSummaryProblems,
} from '@rcs/client';
import type { GpuCapabilities } from '../sandbox/accelerators';
import { ErrorCode, ValidatorJobDto, ValidatorJobResultDto, VerificationSummaryDto } from '@rcs/contracts';
import type { CoordinatorSource } from '../replay/heldout';

/** The coordinator answered something the runner cannot go on from (wrong key, not allowlisted, a 4xx). */
export class CoordinatorAnswerError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | null,
    detail: string,
  ) {
    super(`coordinator answered ${status}${code ? ` ${code}` : ''}: ${detail}`);
    this.name = 'CoordinatorAnswerError';
  }
}

/** No answer: connection refused or reset, or the request timed out. */
export class CoordinatorUnreachableError extends Error {
  constructor(readonly reason: string) {
    super(`coordinator unreachable: ${reason}`);
    this.name = 'CoordinatorUnreachableError';
  }
}

export interface CoordinatorClientOptions {
  baseUrl: string;
  timeoutMs: number;
  /** Tries to post one result (network failures and 5xx answers). */
  postAttempts: number;
  /** First wait between tries; doubles each time. */
  postBackoffMs: number;
  /** The GPUs this runner's sandbox exposes, declared with each scan; none when absent. */
  capabilities?: GpuCapabilities;
}

/** How posting a result ended. */
export type PostOutcome =
  | { kind: 'posted'; verification: VerificationSummaryDto; attempts: number }
  /** An earlier try had reached the coordinator though its answer was lost. */
  | { kind: 'already_recorded'; verification: VerificationSummaryDto; attempts: number }
  /** The coordinator refused it for good (409 job_not_leased, job_already_completed, 4xx). */
  | { kind: 'refused'; status: number; code: string | null; message: string; attempts: number }
  | { kind: 'gave_up'; reason: string; attempts: number };

/** How long `/readyz` waits for the coordinator, whatever RUNNER_HTTP_TIMEOUT_SECONDS allows other calls. */
const READY_TIMEOUT_MS = 2000;

/** Where nothing definite came back: try again (after checking whether the last try landed). */
class Retryable {
  constructor(readonly reason: string) {}
}

/** The coordinator's signed validator routes, as the runner uses them (BT-AUTH-V1: the exact text sent is signed). */
export class CoordinatorClient {
  /** The transport of `@rcs/client` (base URL, timeout, BT-AUTH-V1 signing, error bodies). */
  private readonly http: HttpClient;
  /** Unsigned, with a probe's short timeout. */
  private readonly probe: HttpClient;

  constructor(
    private readonly options: CoordinatorClientOptions,
    private readonly signer: BtAuthSigner,
    private readonly logger: Logger,
  ) {
    this.http = new HttpClient({ baseUrl: options.baseUrl, timeoutMs: options.timeoutMs, signer });
    this.probe = new HttpClient({ baseUrl: options.baseUrl, timeoutMs: Math.min(options.timeoutMs, READY_TIMEOUT_MS) });
  }

  /** Whether the coordinator answers its liveness route, for the runner's /readyz. */
  async ready(): Promise<{ ok: boolean; error?: string }> {
    try {
      const answer = await this.probe.send({ method: 'GET', path: '/healthz' });
      return answer.status === 200 ? { ok: true } : { ok: false, error: `GET /healthz answered ${answer.status}` };
    } catch (error) {
      return { ok: false, error: error instanceof ServiceUnreachableError ? error.reason : (error as Error).message };
    }
  }

  /** The hotkey in canonical SS58 form (prefix 42), as the coordinator stores and compares it. */
  get hotkey(): string {
    return canonicalSs58(this.signer.hotkey) ?? this.signer.hotkey;
  }

  /** The coordinator as a held-out source: shards on its origin are fetched signed with this validator's key. */
  heldoutSource(): CoordinatorSource {
    return {
      origin: new URL(this.options.baseUrl).origin,
      sign: (method, pathAndQuery) => ({ ...this.signer.signRequest({ method, url: pathAndQuery }) }),
    };
  }

  /**
   * Leases up to `limit` jobs whose task hardware this runner meets; `[]` when nothing is pending. Without a GPU
   * the body is `{limit}` as before, which the coordinator reads as CPU only (and an older one still accepts).
   */
  async scan(limit: number): Promise<ValidatorJobDto[]> {
    const capabilities = this.options.capabilities;
    const body = capabilities && capabilities.gpu_count > 0 ? { limit, capabilities } : { limit };
    const response = await this.send('POST', VALIDATOR_SCAN_PATH, JSON.stringify(body));
    if (response.status !== 200) throw answerError(response);
    return asScanResponse(checked(response, VALIDATOR_SCAN_PATH, scanResponseProblems)).jobs;
  }

  /** The verification recorded for this job, if any (a public read: no signature). */
  async findVerification(submissionId: string, jobId: string): Promise<VerificationSummaryDto | null> {
    const response = await this.send('GET', verificationsPath(submissionId), undefined, false);
    if (response.status !== 200) throw answerError(response);
    return asVerificationList(checked(response, verificationsPath(submissionId), verificationListProblems)).find((v) => v.job_id === jobId) ?? null;
  }

  /**
   * Posts a job's result. A lost answer (network failure, timeout) or a 5xx is retried with backoff, but
   * each retry first asks GET /verifications whether the previous try landed, so a result is recorded once.
   */
  async postResult(jobId: string, result: ValidatorJobResultDto): Promise<PostOutcome> {
    const body = JSON.stringify(result);
    const submissionId = result.submission_id as string;
    let reason = 'no attempt';
    for (let attempt = 1; attempt <= this.options.postAttempts; attempt++) {
      if (attempt > 1) {
        await sleep(this.options.postBackoffMs * 2 ** (attempt - 2));
        const recorded = await this.recorded(submissionId, jobId);
        if (recorded instanceof Retryable) {
          reason = recorded.reason;
          continue;
        }
        if (recorded !== null) return { kind: 'already_recorded', verification: recorded, attempts: attempt - 1 };
      }
      const outcome = await this.tryPost(jobId, body, attempt);
      if (!(outcome instanceof Retryable)) return outcome;
      reason = outcome.reason;
      this.logger.warn({ job_id: jobId, attempt, reason }, 'post: no definite answer; will check and retry');
    }
    return { kind: 'gave_up', reason, attempts: this.options.postAttempts };
  }

  private async tryPost(jobId: string, body: string, attempt: number): Promise<PostOutcome | Retryable> {
    let response: Answer;
    try {
      response = await this.send('POST', validatorJobResultPath(jobId), body);
    } catch (error) {
      if (error instanceof CoordinatorUnreachableError) return new Retryable(error.reason);
      throw error;
    }
    if (response.status === 200) {
      const verification = asVerificationSummary(checked(response, validatorJobResultPath(jobId), (document) => verificationSummaryProblems(document)));
      return { kind: 'posted', verification, attempts: attempt };
    }
    if (response.status >= 500) return new Retryable(`HTTP ${response.status}`);
    const refused = answerError(response);
    return { kind: 'refused', status: response.status, code: refused.code, message: refused.message, attempts: attempt };
  }

  private async recorded(submissionId: string, jobId: string): Promise<VerificationSummaryDto | null | Retryable> {
    try {
      return await this.findVerification(submissionId, jobId);
    } catch (error) {
      // Never re-post without a definite "not recorded": any failed check waits for the next try.
      if (error instanceof CoordinatorUnreachableError) return new Retryable(error.reason);
      if (error instanceof CoordinatorAnswerError) return new Retryable(`verification check answered ${error.status}`);
      throw error;
    }
  }

  private async send(method: 'GET' | 'POST', path: string, body?: string, signed = true): Promise<Answer> {
    try {
      return await this.http.send({ method, path, body, signed });
    } catch (error) {
      if (error instanceof ServiceUnreachableError) throw new CoordinatorUnreachableError(error.reason);
      throw error;
    }
  }
}

interface Answer {
  status: number;
  text: string;
}

/** The JSON of a 2xx answer once it passes the contract check; else `InvalidResponseError` listing the problems. */
function checked(response: Answer, path: string, problemsOf: (document: unknown) => string[]): unknown {
  let document: unknown;
  try {
    document = JSON.parse(response.text) as unknown;
  } catch {
    throw new InvalidResponseError(path, ['the body is not JSON']);
  }
  const problems = problemsOf(document);
  if (problems.length > 0) throw new InvalidResponseError(path, problems);
  return document;
}

/** The `detail.error` code and message of a DECISIONS §1 error body, when there is one. */
function answerError(response: Answer): CoordinatorAnswerError {
  const error = serviceAnswerError({ ...response, headers: new Headers() }, '');
  return new CoordinatorAnswerError(error.status, error.code, error.detail);
}

/** Refusals that end the job for this validator: the lease is gone or another result is recorded. */
export const FINAL_CONFLICTS: readonly string[] = [ErrorCode.JobNotLeased, ErrorCode.JobAlreadyCompleted];
