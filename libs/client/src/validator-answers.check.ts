import { VerificationStatus, type ScanResponseDto, type VerificationSummaryDto } from '@rcs/contracts';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const STATUSES: readonly unknown[] = Object.values(VerificationStatus);

function strings(document: Json, at: string, names: readonly string[]): string[] {
  return names.filter((name) => typeof document[name] !== 'string').map((name) => `${at}${name} must be a string`);
}

function objects(document: Json, at: string, names: readonly string[]): string[] {
  return names.filter((name) => !isObject(document[name])).map((name) => `${at}${name} must be an object`);
}

/**
 * The problems of a `VerificationSummaryDto` (empty when it conforms): the fields the runner reads and
 * their types. Unknown properties are tolerated, so a newer coordinator does not break readers.
 */
export function verificationSummaryProblems(document: unknown, at = ''): string[] {
  if (!isObject(document)) return [`${at || 'the verification'} must be a JSON object`];
  const prefix = at ? `${at}.` : '';
  const problems = [
    ...strings(document, prefix, ['id', 'submission_id', 'job_id', 'task_id', 'validator_hotkey', 'metric_name', 'created_at']),
    ...objects(document, prefix, ['observed_metrics']),
  ];
  if (!STATUSES.includes(document['status'])) problems.push(`${prefix}status must be one of ${STATUSES.join(', ')}`);
  const metric = document['metric_value'];
  if (metric !== null && (typeof metric !== 'number' || !Number.isFinite(metric))) problems.push(`${prefix}metric_value must be a number or null`);
  if (document['notes'] !== null && typeof document['notes'] !== 'string') problems.push(`${prefix}notes must be a string or null`);
  return problems;
}

/** The problems of a `GET /api/v1/verifications` answer: an array of `VerificationSummaryDto`. */
export function verificationListProblems(document: unknown): string[] {
  if (!Array.isArray(document)) return ['the verifications must be a JSON array'];
  return document.flatMap((item: unknown, i) => verificationSummaryProblems(item, `[${i}]`));
}

/** The problems of a `ScanResponseDto`: `jobs`, each a leased job with what a replay needs. */
export function scanResponseProblems(document: unknown): string[] {
  if (!isObject(document)) return ['the scan answer must be a JSON object'];
  const jobs = document['jobs'];
  if (!Array.isArray(jobs)) return ['jobs must be an array'];
  return jobs.flatMap((job: unknown, i) => {
    const at = `jobs[${i}].`;
    if (!isObject(job)) return [`jobs[${i}] must be an object`];
    return [...strings(job, at, ['job_id', 'submission_id', 'lease_expires_at']), ...objects(job, at, ['submission', 'task', 'replay_spec', 'detail'])];
  });
}

/** The documents typed as the contract's DTOs once they have no problems. */
export const asScanResponse = (document: unknown): ScanResponseDto => document as ScanResponseDto;
export const asVerificationSummary = (document: unknown): VerificationSummaryDto => document as VerificationSummaryDto;
export const asVerificationList = (document: unknown): VerificationSummaryDto[] => document as VerificationSummaryDto[];
